// The check through the GPU queue (issue 21 #3): POST answers 202 with a job, the page follows
// /api/jobs/<id>, shows its place, and gets the check JSON (or an ApiError carrying it).
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/api";
import { runCheck, type CheckDeps, type JobJson } from "../src/check";

function deps(jobs: JobJson[], posted: unknown[]): CheckDeps {
  let i = 0;
  return {
    post: async <T>(path: string, body: unknown) => {
      posted.push({ path, body });
      return { job: "abc123", state: "queued", position: 2, eta_s: 9.5, superseded: [] } as T;
    },
    get: async <T>(path: string) => {
      expect(path).toBe("api/jobs/abc123");
      return jobs[Math.min(i++, jobs.length - 1)] as T;
    },
    sleep: async () => {},
  };
}

describe("runCheck", () => {
  it("reports the place in the queue and returns the job's check JSON", async () => {
    const posted: unknown[] = [];
    const places: [number, number | null][] = [];
    const r = await runCheck(
      "smem_reverse_static",
      { source: "k" },
      (p, eta) => places.push([p, eta]),
      deps(
        [
          { id: "abc123", state: "queued", position: 1, eta_s: 4 },
          { id: "abc123", state: "running", position: null, eta_s: null },
          {
            id: "abc123",
            state: "done",
            result: { status: "passed", message: "ok", attempt_id: 7, http_status: 200 },
          },
        ],
        posted,
      ),
    );
    expect(posted).toEqual([
      { path: "api/exercises/smem_reverse_static/check", body: { source: "k" } },
    ]);
    expect(places).toEqual([
      [2, 9.5],
      [1, 4],
      [0, null],
    ]);
    expect(r.status).toBe("passed");
    expect((r as { attempt_id?: number }).attempt_id).toBe(7);
  });

  it("throws an ApiError with the check JSON when the check's status is an error", async () => {
    const err = await runCheck(
      "x",
      { source: "k" },
      () => {},
      deps(
        [
          {
            id: "abc123",
            state: "done",
            result: { status: "no_device", message: "no CUDA device (x)", http_status: 503 },
          },
        ],
        [],
      ),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect(((err as ApiError).body as { status: string }).status).toBe("no_device");
  });

  it("a cancelled or superseded job is an error, not a result", async () => {
    const err = await runCheck(
      "x",
      { source: "k" },
      () => {},
      deps([{ id: "abc123", state: "superseded" }], []),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain("superseded");
  });
});
