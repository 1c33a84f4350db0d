import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogs as bundled, languages, pickLanguage } from "../src/i18n";

// Every catalog on disk (src/i18n/<lang>.json), read independently of the bundle's glob: a file
// the glob missed, or a language the glob found that the tests do not know, fails here.
const dir = join(__dirname, "../src/i18n");
const catalogs: Record<string, Record<string, string>> = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]),
);
const en = catalogs.en!;
const others = Object.keys(catalogs).filter((l) => l !== "en");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sources(join(dir, d.name))
      : d.name.endsWith(".ts")
        ? [join(dir, d.name)]
        : [],
  );
}

/** The keys web/src names literally: t("..."), section("..."), title = "...". */
function usedKeys(): Set<string> {
  const used = new Set<string>();
  for (const f of sources(join(__dirname, "../src"))) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/\bt\(\s*"([a-z0-9_.]+)"/g)) used.add(m[1]!);
    for (const m of text.matchAll(/(?:section|title =)\(?\s*"([a-z0-9_]+\.[a-z0-9_.]+)"/g))
      used.add(m[1]!);
  }
  return used;
}

const CJK = /[\u3400-\u9fff]/;

describe("i18n catalogs", () => {
  it("the lab speaks German, English and Chinese, and the bundle has every catalog", () => {
    expect(Object.keys(catalogs).sort()).toEqual(["de", "en", "zh"]);
    expect(languages()).toEqual(["de", "en", "zh"]);
    for (const l of languages()) expect(bundled[l], l).toEqual(catalogs[l]);
  });

  it.each(others)("%s has exactly the keys of en, none empty", (l) => {
    const c = catalogs[l]!;
    expect(
      Object.keys(c).filter((k) => !(k in en)),
      `${l}: keys en lacks`,
    ).toEqual([]);
    expect(
      Object.keys(en).filter((k) => !(k in c)),
      `${l}: keys missing`,
    ).toEqual([]);
    for (const [k, v] of Object.entries(c)) expect(v.trim(), `${l}:${k}`).not.toBe("");
  });

  it("no value of en is empty", () => {
    for (const [k, v] of Object.entries(en)) expect(v.trim(), `en:${k}`).not.toBe("");
  });

  it.each(others)("%s: placeholders and |-separated lists agree with en", (l) => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    const c = catalogs[l]!;
    for (const k of Object.keys(en)) {
      expect(ph(c[k] ?? ""), `${l}:${k}`).toEqual(ph(en[k]!));
      expect((c[k] ?? "").split("|").length, `${l}:${k} items`).toBe(en[k]!.split("|").length);
    }
  });

  it.each(others)("%s differs from en where it should (not a copy)", (l) => {
    const same = Object.keys(en).filter((k) => en[k] === catalogs[l]![k]);
    expect(same.length).toBeLessThan(Object.keys(en).length / 5);
  });

  it("each catalog is in its own language", () => {
    // German letters in the English catalog (once pros and cons of #/alloc were crossed)
    const german = Object.keys(en).filter((k) => /[äöüÄÖÜß]/.test(en[k]!));
    expect(german, "German in en.json").toEqual([]);
    // Chinese: every text with a word in it (not a size, a formula or a name like CUDA)
    const zh = catalogs.zh!;
    const words = Object.keys(en).filter((k) => /[a-z]{3,}/.test(en[k]!.replace(/\{\w+\}/g, "")));
    const latin = words.filter((k) => !CJK.test(zh[k]!));
    expect(latin.length, `zh without Chinese: ${latin.join(", ")}`).toBeLessThan(6);
    const cjk = Object.keys(catalogs.de!).filter((k) => CJK.test(catalogs.de![k]!));
    expect(cjk, "Chinese in de.json").toEqual([]);
  });

  it.each(Object.keys(catalogs))("every key web/src names literally exists in %s", (l) => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(150);
    expect([...used].filter((k) => !(k in catalogs[l]!))).toEqual([]);
  });

  it.each(Object.keys(catalogs))("dynamic key families are complete in %s", (l) => {
    const c = catalogs[l]!;
    const families: Record<string, string[]> = {
      "coalescing.pattern.": ["linear", "strided", "offset", "aos", "column", "random"],
      "banks.pattern.": ["column", "row", "stride", "broadcast"],
      "run.state.": ["queued", "running", "done", "failed", "cancelled"],
      "results.kind.": ["failed", "expected_failure", "note"],
      "gantt.lane.": ["H2D", "SM", "D2H", "copy"],
      "streams.order.": ["depth", "breadth", "rounds"],
      "sync.phase.": ["write", "wait", "read", "hang"],
      "claims.verdict.": ["holds", "different", "fails", "norecord", "none"],
      "claims.page.": ["hierarchy", "coalescing", "banks", "sync", "alloc", "streams", "other"],
    };
    for (const [prefix, names] of Object.entries(families))
      for (const n of names) expect(c, `${l}: ${prefix}${n}`).toHaveProperty([prefix + n]);
    for (const level of ["regs", "smem", "l1", "const", "l2", "global"])
      for (const part of ["name", "scope", "note"])
        expect(c).toHaveProperty([`hierarchy.${level}.${part}`]);
    for (const k of ["explicit", "pinned", "managed", "mapped"])
      for (const part of ["name", "what", "pros", "cons"])
        expect(c).toHaveProperty([`alloc.${k}.${part}`]);
  });
});

describe("language choice", () => {
  it("?lang= first, then the stored choice, then the browser's languages, then en", () => {
    expect(pickLanguage("?lang=zh", "de", ["en-US"])).toBe("zh");
    expect(pickLanguage("?token=abc&lang=DE", null, [])).toBe("de");
    expect(pickLanguage("?lang=xx", "zh", [])).toBe("zh");
    expect(pickLanguage("", null, ["zh-CN", "en"])).toBe("zh");
    expect(pickLanguage("", null, ["zh-TW"])).toBe("zh");
    expect(pickLanguage("", null, ["fr-FR", "de-AT"])).toBe("de");
    expect(pickLanguage("", "fr", ["ja"])).toBe("en");
    // a report written with --lang zh: after the URL and the reader's own choice
    expect(pickLanguage("", null, ["en-US"], "zh")).toBe("zh");
    expect(pickLanguage("", "de", ["en-US"], "zh")).toBe("de");
    expect(pickLanguage("?lang=en", null, [], "zh")).toBe("en");
  });
});
