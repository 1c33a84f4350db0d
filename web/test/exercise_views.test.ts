// The exercise result's counters table and sentence (pages/exercise_counters.ts) and the
// compiler's listing (pages/exercise_compiler.ts), on the check result the e2e serves
// (e2e/fixtures/check-counters.json: a real no-GPU compile of the starter with sample counters).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckJson } from "../src/check";
import { setLanguage } from "../src/i18n";
import { counterTable, explainText, type CountersJson } from "../src/pages/exercise_counters";
import { listingRows, resourcesText } from "../src/pages/exercise_compiler";

const fixture = JSON.parse(
  readFileSync(join(__dirname, "../e2e/fixtures/check-counters.json"), "utf8"),
) as CheckJson;
const counters = fixture.measure!.counters!;

// setLanguage sets <html lang>: a stand-in document in vitest's node environment.
(globalThis as { document?: unknown }).document ??= { documentElement: {} };
const setLang = (l: string) => setLanguage(l);

describe("counters beside the model", () => {
  beforeEach(() => setLang("en"));

  it("has a row per declared figure, the learner, the model and each variant", () => {
    const tab = counterTable(counters);
    expect(tab.columns.map((c) => c.id)).toEqual([
      "yours",
      "intended",
      "starter",
      ...counters.variants!.map((v) => v.variant),
    ]);
    const row = tab.rows.find((r) => r.figure === "wavefronts_per_shared_load")!;
    const cell = (col: string) => row.cells.find((c) => c.column === col)!;
    expect(cell("yours").value).toBe(counters.yours!.wavefronts_per_shared_load);
    expect(cell("intended").value).toBe(counters.model![0].intended.value);
    expect(cell("starter").value).toBe(counters.model![0].starter.value);
    // Bars scale to the row's largest value.
    const max = Math.max(...row.cells.map((c) => c.value ?? 0));
    expect(cell("yours").bar).toBeCloseTo((cell("yours").value ?? 0) / max, 9);
    expect(Math.max(...row.cells.map((c) => c.bar))).toBe(1);
    // Unmodelled figures that were measured follow, with no model cells.
    const occ = tab.rows.find((r) => r.figure === "achieved_occupancy_pct")!;
    expect(occ.cells.find((c) => c.column === "intended")!.value).toBeNull();
    expect(occ.cells.find((c) => c.column === "yours")!.value).toBe(
      counters.yours!.achieved_occupancy_pct,
    );
  });

  it("a figure a variant lacks is empty, never zero", () => {
    const c: CountersJson = {
      ...counters,
      variants: [{ variant: "naive", sectors_per_load_request: 4 }],
    };
    const row = counterTable(c).rows.find((r) => r.figure === "wavefronts_per_shared_load")!;
    expect(row.cells.find((x) => x.column === "naive")!.value).toBeNull();
  });

  it("says which counter explains the miss, in en, de and zh", () => {
    expect(explainText(counters, false)).toBe(
      "Your column read of the tile: 32 wavefronts per shared load (32-way conflict); the padded tile tile[32][33]: 1.",
    );
    setLang("de");
    expect(explainText(counters, false)).toBe(
      "Ihr Spaltenlesen der Kachel: 32 Wavefronts pro Shared-Load (32-facher Konflikt); die aufgefüllte Kachel tile[32][33]: 1.",
    );
    setLang("zh");
    expect(explainText(counters, false)).toContain("32 路冲突");
    setLang("en");
    const same: CountersJson = {
      ...counters,
      verdict: { ...counters.verdict!, yours: 1, off: false, closer_to: "intended" },
    };
    expect(explainText(same, true)).toBe(
      "Your column read of the tile: 1 wavefronts per shared load, as the model predicts for the padded tile tile[32][33] (1).",
    );
    expect(explainText(same, false)).toContain("does not explain the missed target");
    expect(explainText({ ...counters, verdict: undefined }, false)).toBe("");
  });
});

describe("what the compiler made of it", () => {
  beforeEach(() => setLang("en"));

  it("says the resources in one line", () => {
    const c = fixture.compiler!;
    expect(resourcesText(c)).toBe(
      `${c.registers} registers, 0 B spilled, 4 KiB shared, 1 barriers`,
    );
    setLang("de");
    expect(resourcesText(c)).toContain(`${c.registers} Register`);
    expect(resourcesText({})).toBe("ptxas nannte keine Ressourcen");
  });

  it("puts each run of PTX under the learner's line", () => {
    const c = fixture.compiler!;
    const rows = listingRows(c);
    const ptx = rows.filter((r) => r.kind === "ptx");
    expect(ptx.length).toBe(c.ptx_shown);
    const lines = (fixture.source as string).split("\n");
    for (const r of rows.filter((x) => x.kind === "source" && x.line > 0))
      expect(r.text).toBe(lines[r.line - 1]);
    // The column read of the tile compiles to a shared load on its own line.
    const read = lines.findIndex((l) => l.includes("= tile[threadIdx.x][j]")) + 1;
    expect(ptx.some((r) => r.line === read && r.text.startsWith("ld.shared"))).toBe(true);
  });
});
