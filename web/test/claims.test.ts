import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  claimsForPage,
  countVerdicts,
  groupByPage,
  pageHash,
  parseClaims,
  sourceOf,
  verdictKey,
} from "../src/claims";

// `memlab claims --json` of the H200 (docs/results), written before claims carried their page.
const stored = JSON.parse(
  readFileSync(join(__dirname, "../../docs/results/h200-2026-11-30-claims.json"), "utf8"),
);

const api = {
  run: "h200-full",
  claims: [
    {
      id: "stride2_2way",
      page: "banks",
      source: "000_8337f15f37bac5ed.txt:116",
      quote: "2-facher Bank Conflict",
      test: "bank_conflicts strided / stride1",
      rule: "1.7..2.3x",
      verdict: "holds",
      number: 1.94,
      measured: "1.94x",
      evidence: "bank_conflicts strided ...",
    },
    {
      id: "pinned_2x",
      page: "alloc",
      source: "000_8337f15f37bac5ed.txt:374",
      quote: "Pinned ~2x",
      test: "transfers",
      rule: "1.5..2.5x",
      verdict: "holds with a different number",
      measured: "6.63x",
    },
    {
      id: "one_copy_engine",
      page: "streams",
      source: "001_ac69ca6544deb750.txt:256",
      quote: "depth-first blocks",
      test: "streams",
      rule: ">= 1.05x",
      verdict: "does not hold",
    },
    {
      id: "tiling_reuse",
      page: "",
      source: "004_0b408c8cb173ece1.txt:28",
      quote: "TILE threads",
      test: "matmul",
      rule: "-",
      verdict: "no record",
    },
    {
      id: "gcd_degree",
      page: "banks",
      source: "001_ac69ca6544deb750.txt:195",
      quote: "ggT",
      test: "x",
      rule: "y",
      verdict: "holds",
    },
  ],
  counts: { holds: 2, holds_different: 1, does_not_hold: 1, no_record: 1 },
};

describe("claims", () => {
  it("reads what GET /api/claims?run= answers", () => {
    const d = parseClaims(api);
    expect(d.run).toBe("h200-full");
    expect(d.claims.length).toBe(5);
    expect(d.counts).toEqual(api.counts);
    expect(claimsForPage(d, "banks").map((c) => c.id)).toEqual(["stride2_2way", "gcd_degree"]);
    expect(claimsForPage(d, "coalescing")).toEqual([]);
  });

  it("maps every verdict to its key; no verdict is 'none'", () => {
    expect(verdictKey("holds")).toBe("holds");
    expect(verdictKey("holds with a different number")).toBe("different");
    expect(verdictKey("does not hold")).toBe("fails");
    expect(verdictKey("no record")).toBe("norecord");
    expect(verdictKey(undefined)).toBe("none");
    expect(verdictKey("something new")).toBe("norecord");
  });

  it("groups by explainer in the nav's order, the rest last", () => {
    const groups = groupByPage(parseClaims(api));
    expect(groups.map(([p]) => p)).toEqual(["banks", "alloc", "streams", ""]);
    expect(groups[0]![1].length).toBe(2);
  });

  it("counts verdicts itself when the JSON has no counts (the stored CLI output)", () => {
    const d = parseClaims(stored);
    expect(d.claims.length).toBe(stored.claims.length);
    expect(d.claims.length).toBeGreaterThanOrEqual(15);
    const n = d.counts!;
    expect(n.holds + n.holds_different + n.does_not_hold + n.no_record).toBe(d.claims.length);
    // The H200 run: stride 2 is a 2-way conflict, one copy engine does not block depth-first.
    const byId = new Map(d.claims.map((c) => [c.id, c]));
    expect(byId.get("stride2_2way")?.verdict).toBe("holds");
    expect(byId.get("one_copy_engine")?.verdict).toBe("does not hold");
    expect(n.does_not_hold).toBe(1);
    // Written before claims had pages: all of them land in "other".
    expect(groupByPage(d).map(([p]) => p)).toEqual([""]);
  });

  it("a claim whose precondition this GPU lacks is 'not testable here', with its reason", () => {
    const d = parseClaims({
      claims: [
        {
          id: "one_copy_engine",
          quote: "depth-first blocks",
          page: "streams",
          condition: "one copy engine (the device's asyncEngineCount == 1)",
          verdict: "not testable here",
          reason: "3 copy engines",
          measured: "0.874x",
        },
        { id: "b", quote: "q", verdict: "holds" },
      ],
    });
    expect(verdictKey("not testable here")).toBe("untestable");
    const c = d.claims[0]!;
    expect(c.reason).toBe("3 copy engines");
    expect(c.condition).toContain("one copy engine");
    expect(d.claims[1]!.condition).toBeUndefined();
    expect(d.counts).toEqual({
      holds: 1,
      holds_different: 0,
      does_not_hold: 0,
      no_record: 0,
      not_testable: 1,
    });
  });

  it("without a run: claims without verdicts and no counts", () => {
    const d = parseClaims({ claims: [{ id: "a", quote: "q", page: "sync" }], plan: "plan:" });
    expect(d.counts).toBeUndefined();
    expect(countVerdicts(d.claims)).toBeUndefined();
    expect(d.plan).toBe("plan:");
  });

  it("never throws on hostile input", () => {
    for (const x of [null, 3, "x", [], { claims: 5 }, { claims: [null, 1, { id: 2 }] }]) {
      expect(parseClaims(x).claims).toEqual([]);
    }
  });

  it("names the seed and line of a source, and the explainer's hash", () => {
    expect(sourceOf("000_8337f15f37bac5ed.txt:45")).toEqual({ seed: "000", line: 45 });
    expect(sourceOf("elsewhere")).toEqual({ seed: "elsewhere", line: null });
    expect(pageHash("hierarchy")).toBe("#/");
    expect(pageHash("banks")).toBe("#/banks");
    expect(pageHash("")).toBeNull();
    expect(pageHash("evil")).toBeNull();
  });
});
