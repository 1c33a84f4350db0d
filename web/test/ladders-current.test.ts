// The ladders of issue 23 as the lab draws them, over the newest device run (H200, 2026-12-02,
// docs/results/h200-2026-12-02-r3s6-ladders.json: one `memlab run LESSON --seed 7` per lesson of
// today's kernels, merged: transpose (call 6), tensor_cores and conv2d (call 2) from session 6, histogram and
// smem_reverse from session 5), with the plot declarations that run carries (as the core wrote them).
import { describe, expect, it } from "vitest";
import { declaredLadder, measuredBar as bar, storedResult } from "./declared-ladder";

const run = storedResult("h200-2026-12-02-r3s6-ladders.json");
const of = (e: string) => run.records.filter((r) => r.experiment === e);
const ladderOf = (lesson: string) => declaredLadder(run, lesson);

describe("issue 23's ladders over the newest run", () => {
  it("tensor_cores: a TF32 and a BF16 facet, wgmma in both, cuBLAS the vendor line", () => {
    const pd = ladderOf("tensor_cores");
    expect(pd.facets).toEqual(expect.arrayContaining(["dtype=tf32", "dtype=bf16"]));
    for (const facet of ["dtype=tf32", "dtype=bf16"]) {
      expect(bar(pd, facet, "wgmma")?.role).toBe("");
      expect(bar(pd, facet, "cublas")?.role).toBe("vendor");
    }
    for (const v of [
      "wgmma_persistent",
      "wgmma_cluster",
      "wgmma_tma_store",
      "wgmma_cluster_persistent",
    ]) {
      expect(bar(pd, "dtype=bf16", v)).toBeDefined();
      expect(bar(pd, "dtype=tf32", v)).toBeUndefined(); // BF16 only
    }
    // The figure docs/hopper.md quotes: TF32 wgmma at 108.1% of cuBLAS in the same process
    // (2.683 against 2.901 ms).
    const ratio = bar(pd, "dtype=tf32", "wgmma")!.y / bar(pd, "dtype=tf32", "cublas")!.y;
    expect(ratio).toBeCloseTo(1.081, 3);
  });

  it("transpose: every step a bar, the copy kernel and the controls reference lines", () => {
    const pd = ladderOf("transpose");
    const facet = pd.facets.find((f) => f.includes("16384"))!;
    // The best transpose of the run (docs/hopper.md): tile64_s_full, 92.5% of cudaMemcpy.
    const best = of("transpose").find(
      (r) => r.variant === "tile64_s_full" && String(r.params.cols) === "16384",
    )!;
    expect(best.pct_memcpy).toBeCloseTo(92.5, 1);
    for (const v of [
      "tile64_f4",
      "tile64_f4_grouped",
      "tile64_f4_deep",
      "tile64_f4_g32",
      "tile64_f4_pipe",
      "tile64_s",
      "tile64_s_full",
      "tile64_s_rows",
      "tma",
      "tma_ws",
    ]) {
      expect(bar(pd, facet, v)?.role, v).toBe("");
    }
    // The copy kernel (the baseline and a reference line), the controls that are not transposes
    // and cuBLAS's transpose are drawn as references, not as steps.
    for (const v of ["copy", "tile_swap", "tile_swap_pipe", "tile_swap_g32", "tile_copy", "cublas"])
      expect(bar(pd, facet, v)?.role, v).toBe("vendor");
  });

  it("conv2d at 15x15: register_taps above 70% of the FP32 peak, as the scoreboard says", () => {
    const taps = of("conv2d").find(
      (r) => r.variant === "register_taps" && String(r.params.mask) === "15",
    )!;
    expect(taps.pct_fp32_peak).toBeGreaterThan(70);
    expect(taps.pct_fp32_peak).toBeCloseTo(76.1, 1);
  });
});
