import { describe, expect, it } from "vitest";
import { headlineText } from "../src/pages/summary";

describe("summary headline", () => {
  it("says what memlab computed, nothing more (docs/lessons-json.md's example)", () => {
    const text = headlineText({
      figure: "gbps",
      unit: "GB/s",
      at: "n=268435456",
      best: { variant: "copy_f4", value: 3900.1 },
      baseline: { variant: "copy_f1", value: 3100.2 },
      speedup: 1.26,
      vendor: { variant: "memcpy", value: 3950.0 },
      pct_vendor: 98.7,
      model: { within_15pct: 10, of: 12, worst_ratio: 1.2 },
      counts: { timed: 12, failed: 0, skipped: 0, expected_failure: 1 },
    });
    expect(text).toBe(
      "best copy_f4 3,900 GB/s · baseline copy_f1 3,100 GB/s (1.26×) · memcpy 3,950 GB/s (98.7 %) · model within 15 %: 10 of 12",
    );
  });
  it("leaves out what the headline does not have", () => {
    expect(headlineText({ unit: "cycles", best: { variant: "a", value: 5.25 } })).toBe(
      "best a 5.25 cycles",
    );
    expect(headlineText({})).toBe("");
  });
});
