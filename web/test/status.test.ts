import { describe, expect, it } from "vitest";
import {
  checkSchema,
  expectedFailures,
  failures,
  groupFailures,
  SchemaError,
  skipGroups,
  statusCounts,
  statusOf,
  timed,
  type RunJson,
} from "../src/records";
import { realRun } from "./real-run";

const run = realRun();

describe("status as written (the H200 run of 2026-12-01)", () => {
  it("counts every status: 612 timed, 146 skipped, 1 expected failure, 0 failed", () => {
    expect(run.records.length).toBe(759);
    expect(statusCounts(run.records)).toEqual({
      timed: 612,
      verified: 0,
      failed: 0,
      skipped: 146,
      expected_failure: 1,
    });
  });

  it("no skipped record is a failure (the 146 red 'failed check ... error 0' lines are gone)", () => {
    const f = failures(run);
    expect(f.filter((x) => x.kind === "failed")).toEqual([]);
    expect(f.some((x) => /error 0/.test(x.text))).toBe(false);
    // skips are not in the failure list at all, not even as another kind
    expect(f.length).toBe(groupFailures(f).reduce((n, g) => n + g.count, 0));
    expect(f.every((x) => x.kind === "note")).toBe(true);
  });

  it("skips collapse per lesson and reason, with their counts", () => {
    const g = skipGroups(run.records);
    expect(g.reduce((n, x) => n + x.count, 0)).toBe(146);
    expect(g.length).toBe(13);
    const banks = g.find((x) => x.experiment === "bank_conflicts")!;
    expect(banks.count).toBe(90);
    expect(banks.reason).toBe("a fixed read pattern: runs once, at access=read stride=1");
    // every record of a group really was skipped for that reason
    for (const x of g)
      expect(
        run.records.filter(
          (r) => r.experiment === x.experiment && r.status === "skipped" && r.reason === x.reason,
        ).length,
      ).toBe(x.count);
  });

  it("the expected failure is the lesson's teaching point, not a failure", () => {
    const e = expectedFailures(run.records);
    expect(e).toHaveLength(1);
    expect(e[0]!.variant).toBe("tiled_no_sync");
    expect(e[0]!.lesson).toBe("verification caught the missing barrier");
    expect(e[0]!.observed).toBe(true);
    // its note ("expected failure: ...") is not repeated as a warning
    expect(failures(run).some((f) => f.record.includes("tiled_no_sync"))).toBe(false);
  });

  it("timed() keeps only status timed with statistics", () => {
    const t = timed(run.records);
    expect(t.length).toBe(612);
    expect(t.every((r) => statusOf(r) === "timed" && r.stats)).toBe(true);
  });

  it("older records (booleans, no status) read the same way", () => {
    const base = run.records.find((r) => r.status === "timed")!;
    const { status: _s, ...old } = base;
    expect(statusOf({ ...old, skipped: true })).toBe("skipped");
    expect(statusOf({ ...old, verified: false })).toBe("failed");
    expect(statusOf({ ...old, timed: false })).toBe("verified");
    expect(statusOf(old)).toBe("timed");
    // a status as written wins over the booleans
    expect(statusOf({ ...old, status: "skipped", verified: false })).toBe("skipped");
  });
});

describe("schema version", () => {
  it("accepts 1, 2 and a run without one; refuses another with a clear message", () => {
    expect(checkSchema(run)).toBe(run);
    expect(checkSchema({ ...run, schema_version: 2 }).schema_version).toBe(2);
    const noVersion: RunJson = { ...run };
    delete noVersion.schema_version;
    expect(checkSchema(noVersion)).toBe(noVersion);
    for (const v of [3, 0, "2"] as unknown[]) {
      const bad = { ...run, schema_version: v } as RunJson;
      expect(() => checkSchema(bad)).toThrow(SchemaError);
      expect(() => checkSchema(bad)).toThrow(
        /schema_version .* is not one this page reads \(1, 2\)/,
      );
    }
  });
});
