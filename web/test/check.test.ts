import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkView, parsePoint, YOURS, type CheckJson } from "../src/check";
import { ladder, pointLabel } from "../src/records";

// The H200 check results of every reference solution (`memlab exercise check --json`).
const results = JSON.parse(
  readFileSync(join(__dirname, "../../docs/results/h200-2026-11-30-exercises.json"), "utf8"),
) as CheckJson[];

describe("exercise check view", () => {
  it("parses a point label", () => {
    expect(parsePoint("n=64, k=5")).toEqual({ n: "64", k: "5" });
    expect(parsePoint("n=1024 mask=7")).toEqual({ n: "1024", mask: "7" });
    expect(parsePoint(undefined)).toEqual({});
  });

  it("puts the learner's kernel among the lesson's variants for every H200 result", () => {
    expect(results.length).toBe(12);
    for (const r of results) {
      const v = checkView(r);
      expect(v.passed, r.exercise).toBe(r.status === "passed");
      expect(v.run, r.exercise).not.toBeNull();
      const records = v.run!.records;
      expect(records.length).toBe((r.measure?.variants?.length ?? 0) + 1);
      const bars = ladder(records, pointLabel(records[0].params));
      const mine = bars.find((b) => b.variant === YOURS);
      expect(mine, r.exercise).toBeDefined();
      const y = r.measure!.yours!;
      expect(mine!.value).toBeCloseTo(mine!.unit === "GB/s" ? y.gbps! : y.tflops! * 1000, 6);
    }
  });

  it("shows a compile error with the learner's line and no plot", () => {
    const v = checkView({
      status: "compile_error",
      message: 'kernel.cu(7): error: expected a ";"',
      exit_code: 2,
      compile: {
        ok: false,
        log: 'kernel.cu(7): error: expected a ";"',
        diagnostics: [{ line: 7, severity: "error", message: 'expected a ";"' }],
      },
    });
    expect(v.passed).toBe(false);
    expect(v.diagnostics).toEqual([{ line: 7, message: 'expected a ";"' }]);
    expect(v.log).toContain("kernel.cu(7)");
    expect(v.run).toBeNull();
  });
});
