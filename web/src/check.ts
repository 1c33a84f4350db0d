// The exercise check's JSON (POST /api/exercises/<name>/check, as `memlab exercise check --json`)
// turned into what the exercise page shows: verdict, compiler diagnostics, the points checked and
// the learner's kernel as one more bar among the lesson's variants (records for the ladder).
import { ApiError, apiGet, apiPost } from "./api";
import type { RunJson, RunRecord } from "./records";

interface Figures {
  variant?: string;
  description?: string;
  gbps?: number;
  gflops?: number;
  tflops?: number;
  median_ms?: number;
  pct_memcpy?: number;
  verified?: boolean;
  timed?: boolean;
  samples?: number;
  speedup_over_naive?: number;
}

export interface CheckJson {
  exercise?: string;
  lesson?: string;
  status?: string; // passed | wrong | compile_error | usage | no_device | timeout | ... | internal
  message?: string;
  error?: string;
  exit_code?: number;
  compile?: {
    ok?: boolean;
    log?: string;
    diagnostics?: { line: number; severity?: string; message: string }[];
  };
  points?: { point: string; ok: boolean; detail?: string; error?: number }[];
  measure?: {
    point?: string;
    memcpy_gbps?: number;
    naive?: string;
    variants?: Figures[];
    yours?: Figures;
    target?: { met?: boolean; summary?: string; achieved?: number };
  };
  [k: string]: unknown;
}

export const YOURS = "yours";

/** POST /api/exercises/<name>/check's 202 answer: the check waits in the one GPU queue. */
export interface QueuedCheck {
  job: string;
  state?: string;
  position?: number | null;
  eta_s?: number | null;
  superseded?: string[];
}

/** GET /api/jobs/<id> (docs/class-lab.md). */
export interface JobJson {
  id: string;
  kind?: string;
  state: string; // queued | running | done | failed | cancelled | superseded
  position?: number | null;
  eta_s?: number | null;
  result?: (CheckJson & { attempt_id?: number | null; http_status?: number }) | null;
  error?: string;
}

export interface CheckDeps {
  post: <T>(path: string, body: unknown, withToken: boolean) => Promise<T>;
  get: <T>(path: string) => Promise<T>;
  sleep: (ms: number) => Promise<void>;
}

const defaultDeps: CheckDeps = {
  post: apiPost,
  get: apiGet,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/**
 * Sends the check and follows its job until it ends. A compile error comes back at once (an
 * ApiError 400 with the check JSON, as before); otherwise `onQueue(position, eta_s)` reports the
 * place in the queue while it waits (position 0: next or running). A result whose HTTP status
 * would have been an error (503 no device, 500) throws an ApiError carrying the check JSON.
 */
export async function runCheck(
  name: string,
  body: { source: string; sanitize?: boolean },
  onQueue: (position: number, etaS: number | null) => void,
  deps: CheckDeps = defaultDeps,
): Promise<CheckJson> {
  const queued = await deps.post<QueuedCheck>(
    `api/exercises/${encodeURIComponent(name)}/check`,
    body,
    true,
  );
  onQueue(queued.position ?? 0, queued.eta_s ?? null);
  for (;;) {
    await deps.sleep(500);
    const job = await deps.get<JobJson>(`api/jobs/${encodeURIComponent(queued.job)}`);
    if (job.state === "queued" || job.state === "running") {
      onQueue(job.position ?? 0, job.eta_s ?? null);
      continue;
    }
    const result = job.result ?? null;
    if (job.state !== "done" || !result) {
      throw new ApiError(job.error ?? `check ${job.state}`, 500, "", result);
    }
    const status = result.http_status ?? 200;
    if (status >= 400) {
      throw new ApiError(result.error ?? result.message ?? `HTTP ${status}`, status, "", result);
    }
    return result;
  }
}

/** "n=1024, k=5" or "n=1024 k=5" -> {n: "1024", k: "5"}. */
export function parsePoint(point: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (point ?? "").split(/[ ,]+/)) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

function record(lesson: string, params: Record<string, string>, f: Figures): RunRecord {
  return {
    experiment: lesson,
    variant: f.variant ?? YOURS,
    description: f.description,
    params,
    verified: f.verified ?? true,
    timed: f.median_ms !== undefined,
    gbps: f.gbps,
    gflops: f.gflops ?? (f.tflops !== undefined ? f.tflops * 1000 : undefined),
    pct_memcpy: f.pct_memcpy,
    stats: f.median_ms !== undefined ? { median_ms: f.median_ms, samples: f.samples } : undefined,
  };
}

export interface CheckView {
  passed: boolean;
  message: string;
  log: string;
  diagnostics: { line: number; message: string }[];
  points: { point: string; ok: boolean; detail: string }[];
  run: RunJson | null; // the lesson's variants and "yours" at the measured point
}

export function checkView(r: CheckJson): CheckView {
  const lesson = r.lesson ?? "";
  const m = r.measure;
  let run: RunJson | null = null;
  if (m?.yours && m.yours.median_ms !== undefined) {
    const params = parsePoint(m.point);
    const records = [
      ...(m.variants ?? []).map((v) => record(lesson, params, v)),
      record(lesson, params, { ...m.yours, variant: YOURS }),
    ];
    run = { records } as RunJson;
  }
  return {
    passed: r.status === "passed",
    message: r.message ?? r.error ?? r.status ?? "",
    log: r.compile?.ok === false ? (r.compile.log ?? "") : "",
    // Lines of the learner's file only (NVRTC's own name-map lines are 0; the log has them).
    diagnostics: (r.compile?.diagnostics ?? [])
      .filter((d) => d.line > 0)
      .map((d) => ({ line: d.line, message: d.message })),
    points: (r.points ?? []).map((p) => ({ point: p.point, ok: p.ok, detail: p.detail ?? "" })),
    run,
  };
}
