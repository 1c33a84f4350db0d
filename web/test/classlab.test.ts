import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  bestBars,
  exerciseRows,
  exportName,
  failureCounts,
  navFor,
  progressOf,
  queueRows,
  statusKey,
  whoFrom,
  type Me,
  type OverviewExercise,
} from "../src/classlab";
import { etaText, lastProgress, pollDelay, submitCheck, type JobJson } from "../src/check";
import { cacheServerList, attempts } from "../src/attempts";
import {
  forgetToken,
  getToken,
  saveToken,
  takeToken,
  TOKEN_KEY,
  CLASS_TOKEN_KEY,
} from "../src/token";

// The e2e's class (fixtures/class-lab.json): H200 results of the reference solutions and the
// exercise engine's failures.
const fx = JSON.parse(readFileSync(join(__dirname, "../e2e/fixtures/class-lab.json"), "utf8")) as {
  attempts: { id: number; learner: string; exercise: string; created_at: string; result: any }[];
};

function store() {
  const data: Record<string, string> = {};
  return {
    data,
    getItem: (k: string) => data[k] ?? null,
    setItem: (k: string, v: string) => void (data[k] = v),
    removeItem: (k: string) => void delete data[k],
  };
}

const ONE = ["#/summary", "#/", "#/claims", "#/run", "#/exercises"];
const learner: Me = { role: "learner", name: "Anna" };
const teacher: Me = { role: "teacher", name: "Frau Albers", class: { name: "K", code: "K6" } };

describe("who and the navigation", () => {
  it("reads /api/me: a role, the one-person lab (404), or signed out (401)", () => {
    expect(whoFrom(200, { role: "learner", name: "Anna" }).me?.role).toBe("learner");
    expect(whoFrom(200, { role: "root" }).me?.role).toBe("owner");
    expect(whoFrom(404, null)).toEqual({ me: null, signedOut: false });
    expect(whoFrom(401, null)).toEqual({ me: null, signedOut: true });
  });
  it("gives each role its pages", () => {
    expect(navFor(ONE, null)).toEqual(ONE);
    expect(navFor(ONE, learner)).not.toContain("#/run");
    expect(navFor(ONE, learner)).toContain("#/queue");
    expect(navFor(ONE, learner)).not.toContain("#/class");
    expect(navFor(ONE, teacher)).toEqual([...ONE, "#/queue", "#/class"]);
    expect(navFor(ONE, { role: "owner" })).toEqual([...ONE, "#/queue"]);
    expect(ONE).toHaveLength(5); // not mutated
  });
});

describe("tokens", () => {
  it("takes #token= from the hash and keeps what follows", () => {
    const s = store();
    expect(takeToken("http://h:1/#token=abc.DEF-1", s)).toBe("http://h:1/#/");
    expect(s.data[TOKEN_KEY]).toBe("abc.DEF-1");
    expect(takeToken("http://h:1/?lang=de#token=t2&/queue", s)).toBe("http://h:1/?lang=de#/queue");
    expect(s.data[TOKEN_KEY]).toBe("t2");
    const bad = store();
    expect(takeToken("http://h:1/#token=a%20b", bad)).toBe("http://h:1/#/");
    expect(getToken(bad)).toBeNull();
  });
  it("keeps a joined learner's token beside the tab's, and forgets both", () => {
    const s = store();
    const kept = store();
    expect(saveToken("learner-1", s, kept)).toBe(true);
    expect(kept.data[CLASS_TOKEN_KEY]).toBe("learner-1");
    const fresh = store();
    expect(getToken(fresh, kept)).toBe("learner-1"); // a new tab
    fresh.setItem(TOKEN_KEY, "from-link");
    expect(getToken(fresh, kept)).toBe("from-link");
    forgetToken(s, kept);
    expect(getToken(s, kept)).toBeNull();
    expect(saveToken("bad token", s, kept)).toBe(false);
  });
});

describe("queued checks", () => {
  const passed = fx.attempts.find((a) => a.result.status === "passed")!.result;
  function deps(post: { status: number; body: unknown } | Error, jobs: JobJson[]) {
    const seen: JobJson[] = [];
    const sleeps: number[] = [];
    let i = 0;
    return {
      seen,
      sleeps,
      d: {
        post: async () => {
          if (post instanceof Error) throw post;
          return post;
        },
        get: async (path: string) => {
          expect(path).toBe("api/jobs/7");
          return jobs[Math.min(i++, jobs.length - 1)]!;
        },
        sleep: async (ms: number) => void sleeps.push(ms),
        onUpdate: (j: JobJson) => void seen.push(j),
      },
    };
  }
  it("follows a 202 through its places to the result and its attempt", async () => {
    const { d, seen } = deps(
      { status: 202, body: { job: 7, position: 3, eta_s: 40, superseded: [] } },
      [
        { id: 7, state: "queued", position: 2, eta_s: 20 },
        { id: 7, state: "running", progress: ["compiling", { stage: "measuring" }] },
        { id: 7, state: "done", result: { ...passed, attempt_id: 812 } },
      ],
    );
    const out = await submitCheck("x", { source: "s" }, d);
    expect(seen.map((j) => [j.state, j.position])).toEqual([
      ["queued", 3],
      ["queued", 2],
      ["running", undefined],
    ]);
    expect(lastProgress(seen[2]!)).toBe("measuring");
    expect(out.state).toBe("done");
    expect(out.result?.status).toBe("passed");
    expect(out.attemptId).toBe("812");
  });
  it("reports a superseded or cancelled job without a result", async () => {
    for (const state of ["superseded", "cancelled"] as const) {
      const { d } = deps({ status: 202, body: { job: 7, position: 1 } }, [{ id: 7, state }]);
      const out = await submitCheck("x", { source: "s" }, d);
      expect(out).toMatchObject({ state, result: null, job: "7" });
    }
  });
  it("takes a server without a queue: 200 with the check, 400 with a compile error", async () => {
    const a = await submitCheck("x", { source: "s" }, deps({ status: 200, body: passed }, []).d);
    expect(a).toMatchObject({ state: "done", job: null });
    expect(a.result?.status).toBe("passed");
    const compile = fx.attempts.find((x) => x.result.status === "compile_error")!.result;
    const e = Object.assign(new Error("400"), { status: 400, body: compile });
    const b = await submitCheck("x", { source: "s" }, deps(e, []).d);
    expect(b.result?.compile?.ok).toBe(false);
    const limit = Object.assign(new Error("429"), { status: 429, body: { error: "limit" } });
    await expect(submitCheck("x", { source: "s" }, deps(limit, []).d)).rejects.toBe(limit);
  });
  it("stops after a 404 of the job", async () => {
    const { d } = deps({ status: 202, body: { job: 7 } }, []);
    d.get = async () => {
      throw Object.assign(new Error("gone"), { status: 404 });
    };
    await expect(submitCheck("x", { source: "s" }, d)).rejects.toThrow("gone");
  });
  it("says the wait and polls in proportion to it", () => {
    expect(etaText(40)).toBe("40 s");
    expect(etaText(0.2)).toBe("1 s");
    expect(etaText(150)).toBe("3 min");
    expect(etaText(undefined)).toBe("");
    expect(pollDelay({ state: "running" })).toBe(500);
    expect(pollDelay({ state: "queued", eta_s: 40 })).toBe(3000);
    expect(pollDelay({ state: "queued", eta_s: 4 })).toBe(1000);
  });
});

describe("the queue", () => {
  const q = {
    paused: false,
    reserved: null,
    jobs: [
      { id: 3, kind: "check", owner: "another learner", state: "queued", position: 2, eta_s: 30 },
      { id: 4, kind: "check", owner: "Anna", state: "queued", position: 1, eta_s: 15, mine: true },
      { id: 1, kind: "run", owner: "Frau Albers", state: "running", eta_s: 5 },
    ],
  };
  it("puts the running job first, then the places; a learner cancels only their own", () => {
    const rows = queueRows(q, learner);
    expect(rows.map((r) => r.id)).toEqual(["1", "4", "3"]);
    expect(rows.map((r) => r.place)).toEqual(["", "1", "2"]);
    expect(rows.map((r) => r.cancellable)).toEqual([false, true, false]);
    expect(queueRows(q, teacher).every((r) => r.cancellable)).toBe(true);
  });
});

describe("the teacher's overview", () => {
  const ex: OverviewExercise = {
    exercise: "e1",
    lesson: "l1",
    learners: [
      {
        name: "Ben",
        passed: false,
        attempts: 3,
        best: { median_ms: 0.4, achieved: 0.5, target: 0.85 },
      },
      {
        name: "Chen",
        passed: true,
        first_passed_at: "2026-12-02T09:12:30Z",
        attempts: 2,
        best: { median_ms: 0.27, achieved: 1.01, target: 0.85 },
      },
      {
        name: "Anna",
        passed: true,
        first_passed_at: "2026-12-02T08:16:05Z",
        attempts: 2,
        best: null,
      },
    ],
    failures: { compile_error: 3, wrong_result: 1, timeout: 0 },
    most_common: {
      status: "compile_error",
      count: 3,
      example: { attempt_id: 104, learner: "Ben" },
    },
    variants: [{ variant: "global", median_ms: 0.2 }],
  };
  it("lists who passed first, then the others; met against the target", () => {
    const rows = exerciseRows(ex);
    expect(rows.map((r) => r.name)).toEqual(["Anna", "Chen", "Ben"]);
    expect(rows.map((r) => r.met)).toEqual([null, true, false]);
  });
  it("draws each learner's best time beside the lesson's variants", () => {
    expect(bestBars(ex)).toEqual([
      { label: "Chen", value: 0.27, kind: "passed" },
      { label: "Ben", value: 0.4, kind: "failed" },
      { label: "global", value: 0.2, kind: "variant" },
    ]);
  });
  it("counts the failures, the most frequent first, none of zero", () => {
    expect(failureCounts(ex)).toEqual([
      ["compile_error", 3],
      ["wrong_result", 1],
    ]);
  });
  it("names every failure kind of the fixture (the engine's statuses)", () => {
    const kinds = new Set(fx.attempts.map((a) => a.result.status));
    for (const k of [
      "compile_error",
      "wrong_result",
      "target_missed",
      "timeout",
      "sanitizer",
      "launch_error",
    ])
      expect(kinds.has(k), k).toBe(true);
    for (const k of kinds) expect(statusKey(k), k).not.toBeNull();
    expect(statusKey("made_up")).toBeNull();
  });
  it("sums a learner's progress through the lessons", () => {
    const p = progressOf({
      name: "Anna",
      learner_id: 1,
      attempts: 6,
      passed: [],
      lessons: [
        { lesson: "b", passed: 1, total: 2 },
        { lesson: "a", passed: 3, total: 3 },
      ],
    });
    expect(p).toMatchObject({ done: 4, total: 5 });
    expect(p.lessons.map((l) => l.lesson)).toEqual(["a", "b"]);
  });
  it("names the export after the class and the day", () => {
    expect(exportName("GPU-Praktikum WS 26/27", "csv", new Date("2026-12-02T10:00:00Z"))).toBe(
      "GPU-Praktikum-WS-26-27-attempts-2026-12-02.csv",
    );
    expect(exportName(undefined, "json", new Date("2026-12-02T10:00:00Z"))).toBe(
      "class-attempts-2026-12-02.json",
    );
  });
});

describe("the attempts cache", () => {
  it("holds the server's list newest first and keeps sources it knew", () => {
    const s = store() as unknown as Storage;
    const rows = fx.attempts
      .filter((a) => a.learner === "Ben" && a.exercise === "smem_reverse_static")
      .map((a) => ({
        id: a.id,
        exercise: a.exercise,
        status: a.result.status,
        message: a.result.message,
        created_at: a.created_at,
      }));
    expect(rows.length).toBe(4);
    const first = cacheServerList("e", rows, s);
    expect(first.map((a) => a.status)).toEqual([
      "passed",
      "wrong_result",
      "compile_error",
      "compile_error",
    ]);
    s.setItem(
      "memlab.attempts.e",
      JSON.stringify(first.map((a) => ({ ...a, source: `src ${a.id}` }))),
    );
    const again = cacheServerList("e", rows, s);
    expect(again.every((a) => a.source === `src ${a.id}`)).toBe(true);
    expect(attempts("e", s)).toHaveLength(4);
  });
});
