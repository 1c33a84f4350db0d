import { describe, expect, it } from "vitest";
import { getToken, takeToken, tokenHeaders, TOKEN_KEY, type TokenStore } from "../src/token";
import { parseHash } from "../src/router";
import { parseReportData } from "../src/mode";
import { paramsToArgv } from "../src/models";
import { quizCorrect } from "../src/pages/exercise";

function store(): TokenStore & { data: Record<string, string> } {
  const data: Record<string, string> = {};
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

describe("token", () => {
  it("is taken from ?token=, stored, and removed from the URL", () => {
    const s = store();
    const cleaned = takeToken("http://127.0.0.1:8080/?token=abc123DEF456ghi7&x=1#/run", s);
    expect(s.data[TOKEN_KEY]).toBe("abc123DEF456ghi7");
    expect(cleaned).toBe("http://127.0.0.1:8080/?x=1#/run");
    expect(tokenHeaders(s)).toEqual({ "X-Memlab-Token": "abc123DEF456ghi7" });
  });
  it("leaves the URL alone without a token and sends no header", () => {
    const s = store();
    expect(takeToken("http://127.0.0.1:8080/#/", s)).toBeNull();
    expect(getToken(s)).toBeNull();
    expect(tokenHeaders(s)).toEqual({});
  });
  it("rejects a token with spaces or control characters", () => {
    const s = store();
    takeToken("http://h/?token=a%20b", s);
    expect(getToken(s)).toBeNull();
  });
});

describe("router", () => {
  it("parses hash routes", () => {
    expect(parseHash("")).toEqual({ page: "hierarchy", arg: "" });
    expect(parseHash("#/")).toEqual({ page: "hierarchy", arg: "" });
    expect(parseHash("#/lesson/matmul")).toEqual({ page: "lesson", arg: "matmul" });
    expect(parseHash("#/results/h200%20full")).toEqual({ page: "results", arg: "h200 full" });
  });
});

describe("report data", () => {
  it("accepts {runs}, a list of runs, or one run", () => {
    expect(
      parseReportData('{"kind":"memlab-report","runs":[{"name":"a","run":{"records":[]}}]}')
        .runs[0]!.name,
    ).toBe("a");
    expect(parseReportData('[{"records":[]},{"records":[]}]').runs.length).toBe(2);
    expect(parseReportData('{"records":[{"experiment":"x"}]}').runs.length).toBe(1);
  });
});

describe("models glue", () => {
  it("turns params into memlab model argv (the development stand-in)", () => {
    expect(
      paramsToArgv("coalescing", { pattern: "strided", elem_size: 4, stride: 2, json: false }),
    ).toEqual([
      "memlab",
      "model",
      "coalescing",
      "--pattern",
      "strided",
      "--elem-size",
      "4",
      "--stride",
      "2",
      "--json",
    ]);
    expect(paramsToArgv("timeline", { concurrent_kernels: true })).toContain(
      "--concurrent-kernels",
    );
  });
});

describe("quiz", () => {
  it("accepts the model's answer, within 1 % for fractions", () => {
    expect(quizCorrect("32", 32)).toBe(true);
    expect(quizCorrect("31", 32)).toBe(false);
    expect(quizCorrect("1,31", 1.3061)).toBe(true);
    expect(quizCorrect("", 0)).toBe(false);
  });
});
