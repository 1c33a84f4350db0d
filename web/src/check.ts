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
