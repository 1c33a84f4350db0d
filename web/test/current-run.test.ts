// Today's code on a GPU: the full default run of session 9 (2026-12-07, an H100 80GB HBM3,
// `scripts/device/verify.sh suite` = `memlab run --seed 7`, 770 records of 26 lessons;
// docs/results/h100-2026-12-07-r3s9-suite.json). What the lab shows of it: the statuses, and for
// every lesson every plot it declares, drawn from this run's records.
import { describe, expect, it } from "vitest";
import { ganttRecords, plotData, rooflineData, stackData } from "../src/plots/declared";
import { expectedFailures, failures, skipGroups, statusCounts } from "../src/records";
import { declaredLadder, measuredBar, storedResult } from "./declared-ladder";

const run = storedResult("h100-2026-12-07-r3s9-suite.json");

describe("today's full default run (H100, 2026-12-07)", () => {
  it("770 records: 769 timed, the one expected failure, nothing failed or skipped", () => {
    expect(run.context?.device?.name).toContain("H100");
    expect(run.records.length).toBe(770);
    expect(statusCounts(run.records)).toEqual({
      timed: 769,
      verified: 0,
      failed: 0,
      skipped: 0,
      expected_failure: 1,
    });
    expect(skipGroups(run.records)).toEqual([]);
    expect(failures(run).filter((f) => f.kind === "failed")).toEqual([]);
    expect(expectedFailures(run.records).map((e) => e.variant)).toEqual(["tiled_no_sync"]);
  });

  it("every lesson declares its plots, and every declared plot has data from this run", () => {
    const lessons = [...new Set(run.records.map((r) => r.experiment))];
    expect(lessons.length).toBe(26);
    for (const lesson of lessons) {
      const decl = run.lessons[lesson]!;
      const records = run.records.filter((r) => r.experiment === lesson);
      expect(decl.plots?.length ?? 0, lesson).toBeGreaterThan(0);
      for (const plot of decl.plots!) {
        const what = `${lesson}/${plot.id} (${plot.kind})`;
        if (plot.kind === "stacked")
          expect(stackData(plot, records).length, what).toBeGreaterThan(0);
        else if (plot.kind === "roofline")
          expect(rooflineData(plot, records).length, what).toBeGreaterThan(0);
        else if (plot.kind === "gantt")
          expect(ganttRecords(plot, records).length, what).toBeGreaterThan(0);
        else {
          const pd = plotData(run, decl, plot, records);
          expect(pd.data.filter((d) => d.kind === "measured").length, what).toBeGreaterThan(0);
        }
      }
    }
  });

  it("matmul's ladder holds every step, round 8's tail among them, cuBLAS the vendor", () => {
    const pd = declaredLadder(run, "matmul");
    const facet = pd.facets[0]!;
    const steps = run.records
      .filter((r) => r.experiment === "matmul" && r.variant !== "cublas")
      .map((r) => r.variant);
    expect(steps).toContain("thread_tile_8x16_tail");
    for (const v of new Set(steps)) expect(measuredBar(pd, facet, v)?.role, v).toBe("");
    expect(measuredBar(pd, facet, "cublas")?.role).toBe("vendor");
  });
});
