import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { diagnosisItems, findingText, type Diagnosis, type Finding } from "../src/diagnosis";
import { setLanguage } from "../src/i18n";

// check() of matmul_tiled without its barriers, diagnosed from racecheck's output
// (tests/host/test_diagnosis_runs.cpp writes this fixture from today's code).
const fx = JSON.parse(
  readFileSync(join(__dirname, "../e2e/fixtures/check-diagnosis.json"), "utf8"),
) as { check: { diagnosis: Diagnosis } };
const d = fx.check.diagnosis;

// setLanguage sets <html lang>: the smallest document that has one (vitest runs in node).
vi.stubGlobal("document", { documentElement: { lang: "en" } });
afterEach(() => setLanguage("en"));

describe("diagnosis view", () => {
  it("says each finding in English as the CLI does, from the structured fields", () => {
    setLanguage("en");
    const { summary, items } = diagnosisItems(d);
    expect(items.length).toBe(3);
    expect(summary).toContain("racecheck");
    expect(summary).toContain("the smallest failing test point");
    // The server's sentence for the other-warp hazard and the page's agree word for word.
    expect(items[1].text).toBe(d.hazards![1].sentence);
    expect(items[1].lines).toEqual([14, 15]);
    expect(items[1].code[0]).toMatch(/^14: Bs\[ty\]\[tx\] =/);
    expect(items[2].text).toContain("overwrites it for the next iteration");
    expect(items[0].text).toContain("of the same warp reads As[ty][i]");
  });

  it("speaks German and Chinese with the same lines, threads and counts", () => {
    setLanguage("de");
    const de = diagnosisItems(d).items.map((i) => i.text);
    expect(de[1]).toBe(
      "Zeile 14 schreibt Bs[ty][tx], während Zeile 15 in einem anderen Warp Bs[i][tx] liest: " +
        "dazwischen fehlt ein __syncthreads() (Thread (1,1,0) gegen (1,14,0), Block (1,0,0); " +
        "3072× gemeldet)",
    );
    setLanguage("zh");
    const zh = diagnosisItems(d).items.map((i) => i.text);
    expect(zh[2]).toContain("第 15 行读取 Bs[i][tx]");
    expect(zh[2]).toContain("循环体末尾缺少 __syncthreads()");
    expect(zh[2]).toContain("(1,3,0)");
  });

  it("an out-of-bounds write names the bounds test; no diagnosis claims nothing", () => {
    const oob: Finding = {
      tool: "memcheck",
      kind: "access",
      message: "oob",
      at: { access: "write", line: 3, thread: [5, 0, 0], code: "c[i] = a[i] + b[i];" },
      block: [0, 0, 0],
      size_bytes: 4,
      records: 1,
      bounds: { array: "c", index: "i", limit: "n" },
    };
    expect(findingText(oob)).toBe(
      "line 3: thread (5,0,0) of block (0,0,0) writes 4 bytes outside its buffers — is the " +
        "bounds test i < n missing?",
    );
    const none = diagnosisItems({
      ran: false,
      reason: "no diagnosis ran: compute-sanitizer not found (PATH, /usr/local/cuda/bin)",
      hazards: [],
    });
    expect(none.items).toEqual([]);
    expect(none.summary).toContain("compute-sanitizer not found");
    expect(none.summary).not.toMatch(/hazard|race|__syncthreads/);
    expect(diagnosisItems(undefined).items).toEqual([]);
  });
});
