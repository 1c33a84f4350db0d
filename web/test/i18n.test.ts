import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import de from "../src/i18n/de.json";
import en from "../src/i18n/en.json";

const catalogs: Record<string, Record<string, string>> = { de, en };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sources(join(dir, d.name))
      : d.name.endsWith(".ts")
        ? [join(dir, d.name)]
        : [],
  );
}

describe("i18n catalogs", () => {
  it("every key is in both catalogs, none empty", () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [lang, c] of Object.entries(catalogs))
      for (const [k, v] of Object.entries(c)) expect(v.trim(), `${lang}:${k}`).not.toBe("");
  });

  it("placeholders agree between languages", () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const k of Object.keys(en))
      expect(ph(de[k as keyof typeof de]), k).toEqual(ph(en[k as keyof typeof en]));
  });

  it("German and English differ where they should (not a copy)", () => {
    const same = Object.keys(en).filter(
      (k) => en[k as keyof typeof en] === de[k as keyof typeof de],
    );
    expect(same.length).toBeLessThan(Object.keys(en).length / 5);
  });

  it("every key the source names literally exists", () => {
    const used = new Set<string>();
    for (const f of sources(join(__dirname, "../src"))) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/\bt\(\s*"([a-z0-9_.]+)"/g)) used.add(m[1]!);
      for (const m of text.matchAll(/(?:section|title =)\(?\s*"([a-z0-9_]+\.[a-z0-9_.]+)"/g))
        used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(150);
    const missing = [...used].filter((k) => !(k in en));
    expect(missing).toEqual([]);
  });

  it("dynamic key families are complete", () => {
    const families: Record<string, string[]> = {
      "coalescing.pattern.": ["linear", "strided", "offset", "aos", "column", "random"],
      "banks.pattern.": ["column", "row", "stride", "broadcast"],
      "run.state.": ["queued", "running", "done", "failed", "cancelled"],
      "results.kind.": ["failed", "expected_failure", "note"],
      "gantt.lane.": ["H2D", "SM", "D2H", "copy"],
      "streams.order.": ["depth", "breadth", "rounds"],
      "sync.phase.": ["write", "wait", "read", "hang"],
    };
    for (const [prefix, names] of Object.entries(families))
      for (const n of names) expect(en, prefix + n).toHaveProperty([prefix + n]);
    for (const level of ["regs", "smem", "l1", "const", "l2", "global"])
      for (const part of ["name", "scope", "note"])
        expect(en).toHaveProperty([`hierarchy.${level}.${part}`]);
    for (const k of ["explicit", "pinned", "managed", "mapped"])
      for (const part of ["name", "what", "pros", "cons"])
        expect(en).toHaveProperty([`alloc.${k}.${part}`]);
  });
});
