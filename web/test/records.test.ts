import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareRuns,
  experiments,
  failures,
  groupFailures,
  ladder,
  ladderUnit,
  measuredGantt,
  pointLabel,
  type RunJson,
} from "../src/records";

const full = JSON.parse(
  readFileSync(join(__dirname, "../../docs/results/h200-2026-11-29-full.json"), "utf8"),
) as RunJson;
const of = (e: string) => full.records.filter((r) => r.experiment === e);

describe("record -> plot data", () => {
  it("lists every lesson of the full run", () => {
    expect(experiments(full)).toContain("coalescing");
    expect(experiments(full)).toContain("streams");
    expect(experiments(full).length).toBe(18);
  });

  it("ladder: matmul in GFLOP/s with cuBLAS marked vendor, bandwidth in GB/s", () => {
    const mm = of("matmul");
    expect(ladderUnit(mm)).toBe("GFLOP/s");
    const bars = ladder(mm, pointLabel(mm[0]!.params));
    expect(bars.find((b) => b.variant === "cublas")!.vendor).toBe(true);
    expect(bars.find((b) => b.variant === "cublas")!.value).toBeGreaterThan(50000);
    expect(ladderUnit(of("bandwidth"))).toBe("GB/s");
  });

  it("streams: measured intervals become bars on three lanes", () => {
    const r = of("streams").find((x) => x.variant === "depth_first" && x.params.streams === "4")!;
    const bars = measuredGantt(r);
    expect(new Set(bars.map((b) => b.lane))).toEqual(new Set(["H2D", "SM", "D2H"]));
    expect(bars.every((b) => b.end > b.start)).toBe(true);
    expect(bars.length).toBe(3 * Number(r.params.segments));
  });

  it("failures: notes grouped per lesson, nothing failed in the full run", () => {
    const f = failures(full);
    expect(f.filter((x) => x.kind === "failed")).toEqual([]);
    const g = groupFailures(f);
    expect(g.length).toBeLessThan(f.length);
    expect(g.find((x) => x.record.startsWith("transfers"))!.count).toBeGreaterThan(10);
  });

  it("compare: identical runs give ratio 1 everywhere; a slower copy is flagged", () => {
    const same = compareRuns(full, full);
    expect(same.every((r) => r.ratio === 1 && r.change === "same")).toBe(true);
    const slower: RunJson = {
      ...full,
      records: full.records.map((r) =>
        r.experiment === "matmul" && r.stats
          ? { ...r, stats: { ...r.stats, median_ms: r.stats.median_ms * 1.2 } }
          : r,
      ),
    };
    const rows = compareRuns(full, slower);
    expect(rows.filter((r) => r.change === "slower").length).toBe(
      of("matmul").filter((r) => r.stats).length,
    );
    expect(rows.filter((r) => r.change === "faster").length).toBe(0);
  });
});
