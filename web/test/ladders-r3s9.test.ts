// Session 9's runs as the lab draws them (2026-12-07, an H100): call 1 ran round seven's lines with
// `--repeat 3` (docs/results/h100-2026-12-07-r3s9-call1.json: run_1 transpose, run_3 conv2d 5x5),
// call 2 the SGEMM tail step (-call2.json: run_1 `memlab run matmul -v
// thread_tile_8x16,thread_tile_8x16_sk,thread_tile_8x16_tail,cublas --repeat 3 --seed 7`, run_2 the
// same at m = 4224 without _sk), with the plot declarations each run carries.
import { describe, expect, it } from "vitest";
import {
  declaredLadder,
  type DeclaredRun,
  measuredBar,
  pctMemcpy,
  storedResult,
} from "./declared-ladder";

const load = (file: string) => storedResult<Record<string, DeclaredRun>>(file);
const call1 = load("h100-2026-12-07-r3s9-call1.json");
const call2 = load("h100-2026-12-07-r3s9-call2.json");

describe("session 9 over today's runs (H100)", () => {
  it("matmul: the tail step is a bar beside thread_tile_8x16 and _sk, cuBLAS the vendor", () => {
    const run = call2.run_1!;
    expect(run.context?.device?.name).toContain("H100");
    const pd = declaredLadder(run, "matmul");
    const facet = pd.facets[0]!;
    const bar = (v: string) => measuredBar(pd, facet, v);
    for (const v of ["thread_tile_8x16", "thread_tile_8x16_sk", "thread_tile_8x16_tail"])
      expect(bar(v)?.role, v).toBe("");
    expect(bar("cublas")?.role).toBe("vendor");
    // docs/matmul.md "Round 8": level within 0.3% at 4096^3 (91.7-92.0% of cuBLAS).
    const tail = bar("thread_tile_8x16_tail")!.y / bar("thread_tile_8x16")!.y;
    expect(tail).toBeGreaterThan(0.99);
    expect(tail).toBeLessThan(1.005);
  });

  it("matmul at m = 4224: the tail's waves alone are 2.1% slower than thread_tile_8x16", () => {
    const pd = declaredLadder(call2.run_2!, "matmul");
    const facet = pd.facets[0]!;
    const y = (v: string) => measuredBar(pd, facet, v)!.y;
    expect(y("thread_tile_8x16_tail") / y("thread_tile_8x16")).toBeCloseTo(0.979, 2);
  });

  it("repeated runs: one bar per variant, at the first repeat's median the docs quote", () => {
    const run = call1.run_1!;
    const pd = declaredLadder(run, "transpose");
    const facet = pd.facets.find((f) => f.includes("16384") && !f.includes("8192"))!;
    for (const v of ["tile64_s_full", "tile64_s_col", "tile64_s_l2p"])
      expect(measuredBar(pd, facet, v)?.role, v).toBe("");
    expect(pctMemcpy(run, "tile64_s_col", { rows: "16384", cols: "16384" })).toBeCloseTo(95.0, 1);
    expect(pctMemcpy(run, "tile_copy", { rows: "16384", cols: "16384" })).toBeCloseTo(96.7, 1);
    expect(pctMemcpy(call1.run_3!, "register_deep_l2p")).toBeCloseTo(97.5, 1);
  });
});

describe("session 9's transpose step over its run (H100, call 4)", () => {
  it("tile64_s_rows32 is a step of the ladder at the figure docs/transpose.md quotes", () => {
    const run = load("h100-2026-12-07-r3s9-call4.json").run_1!;
    const pd = declaredLadder(run, "transpose");
    const facet = pd.facets.find((f) => f.includes("16384") && !f.includes("8192"))!;
    for (const v of ["tile64_s_full", "tile64_s_rows", "tile64_s_rows32"])
      expect(measuredBar(pd, facet, v)?.role, v).toBe("");
    expect(measuredBar(pd, facet, "cublas")?.role).toBe("vendor");
    expect(pctMemcpy(run, "tile64_s_rows32", { rows: "16384", cols: "16384" })).toBeCloseTo(
      90.6,
      1,
    );
  });
});
