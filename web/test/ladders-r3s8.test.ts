// Round seven's steps as the lab draws them, over the runs of today's code (session 8, 2026-12-07,
// an H100: docs/results/h100-2026-12-07-r3s8-call1.json; run_1 `memlab run transpose --seed 7`,
// run_2 `memlab run matmul -v thread_tile_8x16,thread_tile_8x16_sk,cublas --seed 7`, run_4
// `memlab run conv2d -a separable=no -a mask=5 -v register,register_deep,register_deep_l2p,smem_ring
// --seed 7`), with the plot declarations each run carries.
import { describe, expect, it } from "vitest";
import {
  declaredLadder,
  type DeclaredRun,
  measuredBar,
  pctMemcpy,
  storedResult,
} from "./declared-ladder";

const call = storedResult<Record<string, DeclaredRun>>("h100-2026-12-07-r3s8-call1.json");

function ladder(run: DeclaredRun, lesson: string) {
  const pd = declaredLadder(run, lesson);
  const bar = (facet: string, variant: string) => measuredBar(pd, facet, variant);
  return { pd, bar };
}

describe("round seven over today's runs (H100)", () => {
  it("transpose: tile64_s_col and tile64_s_l2p are steps, tile_mirror a reference line", () => {
    const run = call.run_1!;
    expect(run.context?.device?.name).toContain("H100");
    const { pd, bar } = ladder(run, "transpose");
    const facet = pd.facets.find((f) => f.includes("16384") && !f.includes("8192"))!;
    for (const v of ["tile64_s_full", "tile64_s_col", "tile64_s_l2p"])
      expect(bar(facet, v)?.role, v).toBe("");
    for (const v of ["tile_mirror", "tile_copy", "cublas", "copy"])
      expect(bar(facet, v)?.role, v).toBe("vendor");
    // The figures docs/transpose.md quotes for 16384^2: 95.0% and 94.6% of cudaMemcpy.
    const pct = (v: string) => pctMemcpy(run, v, { rows: "16384", cols: "16384" });
    expect(pct("tile64_s_col")).toBeCloseTo(95.0, 1);
    expect(pct("tile_mirror")).toBeCloseTo(94.6, 1);
  });

  it("matmul: the stream-K step is a bar beside thread_tile_8x16, cuBLAS the vendor", () => {
    const { pd, bar } = ladder(call.run_2!, "matmul");
    const facet = pd.facets[0]!;
    expect(bar(facet, "thread_tile_8x16_sk")?.role).toBe("");
    expect(bar(facet, "cublas")?.role).toBe("vendor");
    const sk = bar(facet, "thread_tile_8x16_sk")!.y / bar(facet, "thread_tile_8x16")!.y;
    expect(sk).toBeCloseTo(1.0, 2); // level, docs/matmul.md "Round 7"
  });

  it("conv2d 5x5: register_deep_l2p and smem_ring are steps with their measured order", () => {
    const run = call.run_4!;
    const { pd, bar } = ladder(run, "conv2d");
    const facet = pd.facets.find((f) => f.includes("mask=5")) ?? pd.facets[0]!;
    for (const v of ["register_deep", "register_deep_l2p", "smem_ring"])
      expect(bar(facet, v)?.role, v).toBe("");
    const pct = (v: string) => pctMemcpy(run, v);
    expect(pct("register_deep_l2p")).toBeCloseTo(97.6, 1);
    expect(pct("smem_ring")).toBeCloseTo(84.0, 1);
  });
});
