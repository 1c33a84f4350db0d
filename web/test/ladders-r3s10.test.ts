// Session 10's runs as the lab draws them (2026-12-07, an H100): call 1
// (docs/results/h100-2026-12-07-r3s10-call1.json) ran `memlab run conv2d -a separable=no -a mask=5 -v
// register_deep,register_deep_l2p,smem_ring,smem_ring_wave --repeat 2 --seed 7` (run_1) and `memlab run
// transpose -v tile64_s_full,tile64_s_col,tile64_s_l2p,tile64_s_col_l2p,cublas,tile_copy,copy --repeat 2
// --seed 7` (run_2), with the plot declarations each run carries.
import { describe, expect, it } from "vitest";
import {
  declaredLadder,
  type DeclaredRun,
  measuredBar,
  pctMemcpy,
  storedResult,
} from "./declared-ladder";

const call1 = storedResult<Record<string, DeclaredRun>>("h100-2026-12-07-r3s10-call1.json");

describe("session 10 over its runs (H100)", () => {
  it("transpose: tile64_s_col_l2p is a step level with cuBLAS at 16384^2 and ahead at 16384 x 8192", () => {
    const run = call1.run_2!;
    expect(run.context?.device?.name).toContain("H100");
    const pd = declaredLadder(run, "transpose");
    const square = pd.facets.find((f) => f.includes("16384") && !f.includes("8192"))!;
    const wide = pd.facets.find((f) => f.includes("8192"))!;
    for (const v of ["tile64_s_full", "tile64_s_col", "tile64_s_l2p", "tile64_s_col_l2p"])
      expect(measuredBar(pd, square, v)?.role, v).toBe("");
    expect(measuredBar(pd, square, "cublas")?.role).toBe("vendor");
    const ratio = (facet: string) =>
      measuredBar(pd, facet, "tile64_s_col_l2p")!.y / measuredBar(pd, facet, "cublas")!.y;
    // docs/transpose.md "Session 10": 97.1% against 97.0-97.1% (level), 96.9 against 96.5%.
    expect(ratio(square)).toBeGreaterThan(0.995);
    expect(ratio(square)).toBeLessThan(1.01);
    expect(ratio(wide)).toBeGreaterThan(1.0);
    expect(pctMemcpy(run, "tile64_s_col_l2p", { rows: "16384", cols: "16384" })).toBeCloseTo(
      97.1,
      1,
    );
  });

  it("conv2d: the one-wave ring is a bar level with smem_ring, far under register_deep_l2p", () => {
    const pd = declaredLadder(call1.run_1!, "conv2d");
    const facet = pd.facets[0]!;
    const y = (v: string) => measuredBar(pd, facet, v)!.y;
    expect(measuredBar(pd, facet, "smem_ring_wave")?.role).toBe("");
    // docs/conv2d.md "Session 10": 84.5% against smem_ring's 84.8%, register_deep_l2p 98.2%.
    expect(y("smem_ring_wave") / y("smem_ring")).toBeGreaterThan(0.98);
    expect(y("smem_ring_wave") / y("smem_ring")).toBeLessThan(1.01);
    expect(y("register_deep_l2p") / y("smem_ring_wave")).toBeGreaterThan(1.15);
    expect(pctMemcpy(call1.run_1!, "register_deep_l2p")).toBeCloseTo(98.2, 1);
  });
});
