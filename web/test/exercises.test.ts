// Every exercise speaks every language of the lab: statement.<lang>.md, and title, target text,
// hints and each quiz question keyed by <lang> in exercise.json, for each catalog in src/i18n/.
// (The C++ side checks the same in validate(), tests/host/test_exercises.cpp.)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../../exercises");
const langs = readdirSync(join(__dirname, "../src/i18n"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""))
  .sort();
const names = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const CJK = /[\u3400-\u9fff]/;

interface Spec {
  title: Record<string, string>;
  target: { text: Record<string, string> };
  hints: Record<string, string[]>;
  quiz: { question: Record<string, string> }[];
}

describe("exercises in every language", () => {
  it("sixteen exercises (seeds 002 and 004 step by step), three languages", () => {
    expect(names.length).toBeGreaterThanOrEqual(16);
    expect(langs).toEqual(["de", "en", "zh"]);
  });

  it.each(names)("%s: statement, title, target, hints and quiz in each language", (name) => {
    const spec = JSON.parse(readFileSync(join(root, name, "exercise.json"), "utf8")) as Spec;
    for (const l of langs) {
      const file = join(root, name, `statement.${l}.md`);
      expect(existsSync(file), `${name}/statement.${l}.md`).toBe(true);
      expect(readFileSync(file, "utf8").trim(), `${name}/statement.${l}.md`).not.toBe("");
      expect(spec.title[l]?.trim(), `${name}: title.${l}`).toBeTruthy();
      expect(spec.target.text[l]?.trim(), `${name}: target.text.${l}`).toBeTruthy();
      expect(spec.hints[l]?.length, `${name}: hints.${l}`).toBe(spec.hints.en!.length);
      for (const h of spec.hints[l]!) expect(h.trim(), `${name}: hints.${l}`).not.toBe("");
      spec.quiz.forEach((q, i) =>
        expect(q.question[l]?.trim(), `${name}: quiz[${i}].question.${l}`).toBeTruthy(),
      );
    }
    const zh = readFileSync(join(root, name, "statement.zh.md"), "utf8");
    expect(zh).toMatch(CJK);
    expect(spec.title.zh).toMatch(CJK);
    for (const h of spec.hints.zh!) expect(h).toMatch(CJK);
    for (const q of spec.quiz) expect(q.question.zh).toMatch(CJK);
  });
});
