// The exercise check's JSON (POST /api/exercises/<name>/check, as `memlab exercise check --json`)
// turned into what the exercise page shows: verdict, compiler diagnostics, the points checked and
// the learner's kernel as one more bar among the lesson's variants (records for the ladder).
import type { RunJson, RunRecord } from "./records";
import type { CountersJson } from "./pages/exercise_counters";
import type { CompilerJson } from "./pages/exercise_compiler";

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
    counters?: CountersJson;
  };
  compiler?: CompilerJson;
  [k: string]: unknown;
}

export const YOURS = "yours";

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

// ---- Queued checks (the class lab: POST answers 202 {job, position, eta_s}; GET /api/jobs/<id>
// until the job ends). A server without a queue answers the check itself (200, or 400 with the
// compile error's JSON): submitCheck() takes both.

export type JobState = "queued" | "running" | "done" | "failed" | "cancelled" | "superseded";

export interface JobJson {
  id: string | number;
  kind?: string;
  owner?: string;
  state: JobState;
  position?: number;
  eta_s?: number;
  progress?: unknown[];
  result?: (CheckJson & { attempt_id?: string | number }) | null;
  error?: string;
  [k: string]: unknown;
}

export interface Queued {
  job: string | number;
  position?: number;
  eta_s?: number;
  superseded?: (string | number)[];
}

export interface CheckOutcome {
  /** How the job ended (a server without a queue: "done"). */
  state: Exclude<JobState, "queued" | "running">;
  /** The check's JSON (also for a compile error); null when the job ended without one. */
  result: CheckJson | null;
  attemptId: string | null;
  job: string | null;
  error: string;
}

export interface CheckDeps {
  /** POST the request: status and body; throws ApiError on 4xx/5xx (the compile error: 400). */
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  get(path: string): Promise<JobJson>;
  sleep(ms: number): Promise<void>;
  /** Each state the job is seen in (queued with its place, running with its progress). */
  onUpdate?(job: JobJson, superseded: (string | number)[]): void;
  /** Set to stop polling (the page was left); the outcome is then "cancelled". */
  stopped?(): boolean;
}

const ENDED = new Set<JobState>(["done", "failed", "cancelled", "superseded"]);

/** How long to wait before asking again: soon when running, about a quarter of the wait else. */
export function pollDelay(job: Pick<JobJson, "state" | "eta_s">): number {
  if (job.state === "running") return 500;
  const eta = (job.eta_s ?? 2) * 250;
  return Math.max(500, Math.min(3000, eta));
}

function isCheck(x: unknown): x is CheckJson {
  return !!x && typeof x === "object" && typeof (x as CheckJson).status === "string";
}

function ended(job: JobJson): CheckOutcome {
  const r = job.result;
  return {
    state: job.state as CheckOutcome["state"],
    result: isCheck(r) ? r : null,
    attemptId: r && r.attempt_id !== undefined ? String(r.attempt_id) : null,
    job: String(job.id),
    error: job.error ?? (isCheck(r) ? "" : typeof r === "string" ? r : ""),
  };
}

/** Follows job `id` until it ends (a check, a class claims run). Three failed polls in a row throw. */
export async function waitJob(
  id: string | number,
  deps: CheckDeps,
  first?: JobJson,
  superseded: (string | number)[] = [],
): Promise<JobJson> {
  let job: JobJson = first ?? { id, state: "queued" };
  let errors = 0;
  for (;;) {
    if (ENDED.has(job.state)) return job;
    deps.onUpdate?.(job, superseded);
    await deps.sleep(pollDelay(job));
    if (deps.stopped?.()) return { ...job, state: "cancelled" };
    try {
      job = await deps.get(`api/jobs/${encodeURIComponent(String(id))}`);
      errors = 0;
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 404 || ++errors >= 3) throw e;
    }
  }
}

/** The one path of a check: POST, then (202) the job's place and progress until it ends. */
export async function submitCheck(
  name: string,
  request: { source: string; file_name?: string; sanitize?: boolean },
  deps: CheckDeps,
): Promise<CheckOutcome> {
  const path = `api/exercises/${encodeURIComponent(name)}/check`;
  let answer: { status: number; body: unknown };
  try {
    answer = await deps.post(path, request);
  } catch (e) {
    // A server without a queue answers a compile error with 400 and the check's JSON.
    const body = (e as { body?: unknown }).body;
    if (isCheck(body) && body.compile)
      return { state: "done", result: body, attemptId: null, job: null, error: "" };
    throw e;
  }
  if (answer.status !== 202) {
    const r = answer.body as CheckJson & { attempt_id?: string | number };
    return {
      state: "done",
      result: isCheck(r) ? r : null,
      attemptId: r?.attempt_id !== undefined ? String(r.attempt_id) : null,
      job: null,
      error: isCheck(r) ? "" : "the server's answer is not a check",
    };
  }
  const q = answer.body as Queued;
  const first: JobJson = { id: q.job, state: "queued", position: q.position, eta_s: q.eta_s };
  return ended(await waitJob(q.job, deps, first, q.superseded ?? []));
}

/** "40 s", "3 min": a wait as the queue line says it. */
export function etaText(s: number | undefined): string {
  if (s === undefined || !Number.isFinite(s) || s < 0) return "";
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  return `${Math.round(s / 60)} min`;
}

/** The last progress line of a job (a string, or {stage|message|line}). */
export function lastProgress(job: Pick<JobJson, "progress">): string {
  const p = job.progress?.[job.progress.length - 1];
  if (typeof p === "string") return p;
  if (p && typeof p === "object") {
    const o = p as Record<string, unknown>;
    for (const k of ["message", "stage", "line"]) if (typeof o[k] === "string") return o[k];
  }
  return "";
}
