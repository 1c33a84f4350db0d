// Run records (src/report/json.cpp, schema_version 1 and 2; docs/lessons-json.md) and their
// transforms into plot data. Nothing here derives a figure a model or the runner did not write
// into the record.
import type { LessonDecl } from "./lessons";

/** The schema versions this front end reads; any other is refused (checkSchema). */
export const KNOWN_SCHEMAS = [1, 2];

export type Status = "timed" | "verified" | "failed" | "skipped" | "expected_failure";
export interface Stats {
  median_ms: number;
  min_ms?: number;
  max_ms?: number;
  samples?: number;
  relative_stdev?: number;
}

export interface Interval {
  op: string;
  segment: number;
  stream: number;
  start_ms: number;
  end_ms: number;
  ready_ms?: number;
}

export interface RunRecord {
  experiment: string;
  variant: string;
  description?: string;
  params: Record<string, string>;
  verified?: boolean;
  check_error?: number;
  check_detail?: string;
  timed?: boolean;
  /** Schema 1 of today's build and schema 2: timed | verified | failed | skipped | expected_failure. */
  status?: Status;
  /** Older runs only (before `status`). */
  skipped?: boolean;
  reason?: string;
  expected_failure?: { lesson?: string; observed?: boolean };
  counters?: Record<string, number>;
  bytes?: number;
  flops?: number;
  fits_in_l2?: boolean;
  baseline?: string;
  notes?: string[];
  figures?: Record<string, number>;
  extra?: { intervals?: Interval[]; [k: string]: unknown };
  stats?: Stats;
  gbps?: number;
  gflops?: number;
  pct_memcpy?: number;
  pct_peak_bandwidth?: number;
  pct_fp32_peak?: number;
  speedup_over_baseline?: number | null;
  prediction?: {
    model: string;
    predicted_ms: number;
    measured_ms: number;
    measured_over_predicted: number;
  };
}

export interface RunJson {
  schema_version?: number;
  context?: {
    date?: string;
    command_line?: string;
    device?: Record<string, unknown>;
    driver_version?: string;
    runtime_version?: string;
    clocks_mhz?: Record<string, number>;
    pcie?: { generation?: number; width?: number };
    seed?: number;
    l2_flushed?: boolean;
    quick?: boolean;
    tool?: { name?: string; version?: string; git_commit?: string };
    [k: string]: unknown;
  };
  ceilings?: { memcpy_d2d?: { measured?: boolean; gbps?: number } };
  /** Schema 2 (and stored schema-1 runs as the server and the report hand them out). */
  lessons?: Record<string, LessonDecl>;
  records: RunRecord[];
}

/** A run of a schema this front end does not know throws, with a message that says so. */
export class SchemaError extends Error {
  constructor(public version: unknown) {
    super(
      `schema_version ${JSON.stringify(version)} is not one this page reads ` +
        `(${KNOWN_SCHEMAS.join(", ")}); open it with the memlab that wrote it`,
    );
  }
}

/** The run, when its schema is known (1 or 2; a run without one is schema 1); else SchemaError. */
export function checkSchema(run: RunJson): RunJson {
  const v = run.schema_version ?? 1;
  if (!KNOWN_SCHEMAS.includes(v as number)) throw new SchemaError(run.schema_version);
  return run;
}

/** The record's status as written; records of older builds (booleans) read the same way. */
export function statusOf(r: RunRecord): Status {
  if (r.status) return r.status;
  if (r.skipped) return "skipped";
  if (r.verified === false) return "failed";
  if (r.timed === false) return "verified";
  return "timed";
}

/** Records that were measured (status timed, with statistics). */
export function timed(records: RunRecord[]): RunRecord[] {
  return records.filter((r) => statusOf(r) === "timed" && r.stats);
}

export function experiments(run: RunJson): string[] {
  const seen: string[] = [];
  for (const r of run.records) if (!seen.includes(r.experiment)) seen.push(r.experiment);
  return seen;
}

/** "n=4096, op=copy": a stable label of a record's axis point (keys sorted). */
export function pointLabel(params: Record<string, string>, skip: string[] = []): string {
  return Object.keys(params)
    .filter((k) => !skip.includes(k))
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(", ");
}

export function recordKey(r: RunRecord): string {
  return `${r.experiment}/${r.variant}/${pointLabel(r.params)}`;
}

/** GB/s the model predicts: the record's bytes over the predicted time. */
export function predictedGbps(r: RunRecord): number | null {
  const p = r.prediction;
  if (!p || !(p.predicted_ms > 0) || !r.bytes) return null;
  return r.bytes / (p.predicted_ms * 1e-3) / 1e9;
}

export interface LadderBar {
  variant: string;
  value: number;
  unit: "GB/s" | "GFLOP/s";
  speedup: number | null;
  vendor: boolean;
  verified: boolean;
}

export const VENDOR_VARIANTS = ["cublas", "cub", "cudaMemcpy", "memcpy", "cufft", "thrust"];

export function isVendor(variant: string): boolean {
  return VENDOR_VARIANTS.some((v) => variant.toLowerCase() === v.toLowerCase());
}

/** Compute-bound lessons are ranked in GFLOP/s, the others in GB/s. */
export function ladderUnit(records: RunRecord[]): "GB/s" | "GFLOP/s" {
  const t = timed(records);
  const flopHeavy = t.filter((r) => (r.pct_fp32_peak ?? 0) > (r.pct_peak_bandwidth ?? 0)).length;
  return flopHeavy > t.length / 2 ? "GFLOP/s" : "GB/s";
}

/** The distinct axis points of a lesson, in run order. */
export function points(records: RunRecord[]): string[] {
  const out: string[] = [];
  for (const r of records) {
    const p = pointLabel(r.params);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** One bar per variant at one axis point. */
export function ladder(records: RunRecord[], point: string): LadderBar[] {
  const unit = ladderUnit(records);
  return timed(records)
    .filter((r) => pointLabel(r.params) === point)
    .map((r) => ({
      variant: r.variant,
      value: unit === "GB/s" ? (r.gbps ?? 0) : (r.gflops ?? 0),
      unit,
      speedup: r.speedup_over_baseline ?? null,
      vendor: isVendor(r.variant),
      verified: r.verified !== false,
    }));
}

export interface GanttBar {
  lane: string;
  start: number;
  end: number;
  segment: number;
  stream: number;
  label: string;
}

/** Measured intervals (extra.intervals) into bars on the H2D engine, the SMs and the D2H engine. */
export function measuredGantt(r: RunRecord): GanttBar[] {
  const intervals = r.extra?.intervals ?? [];
  return intervals.map((iv) => ({
    lane: iv.op === "H2D" ? "H2D" : iv.op === "D2H" ? "D2H" : "SM",
    start: iv.start_ms,
    end: iv.end_ms,
    segment: iv.segment,
    stream: iv.stream,
    label: `${iv.op === "kernel" ? "K" : iv.op}${iv.segment}`,
  }));
}

export interface Failure {
  record: string;
  kind: "failed" | "note";
  text: string;
}

/** Failed checks (status failed) and warnings (notes), one line each; skips are not failures. */
export function failures(run: RunJson): Failure[] {
  const out: Failure[] = [];
  for (const r of run.records) {
    const key = recordKey(r);
    const st = statusOf(r);
    if (st === "failed")
      out.push({ record: key, kind: "failed", text: r.check_detail ?? `error ${r.check_error}` });
    // An expected failure's note repeats its teaching point (shown by expectedFailures).
    if (st === "expected_failure") continue;
    for (const n of r.notes ?? []) out.push({ record: key, kind: "note", text: n });
  }
  return out;
}

/** Notes repeated on many records are shown once with a count. */
export function groupFailures(list: Failure[]): (Failure & { count: number })[] {
  const map = new Map<string, Failure & { count: number }>();
  for (const f of list) {
    const k =
      f.kind === "note" ? `${f.kind}/${f.text}/${f.record.split("/")[0]}` : f.record + f.text;
    const g = map.get(k);
    if (g) g.count++;
    else map.set(k, { ...f, count: 1 });
  }
  return [...map.values()];
}

export interface SkipGroup {
  experiment: string;
  reason: string;
  count: number;
  variants: string[];
}

/** Skipped records collapsed per lesson and reason, with their count (never a failure). */
export function skipGroups(records: RunRecord[]): SkipGroup[] {
  const map = new Map<string, SkipGroup>();
  for (const r of records) {
    if (statusOf(r) !== "skipped") continue;
    const reason = r.reason ?? "";
    const k = `${r.experiment}\u0000${reason}`;
    let g = map.get(k);
    if (!g) map.set(k, (g = { experiment: r.experiment, reason, count: 0, variants: [] }));
    g.count++;
    if (!g.variants.includes(r.variant)) g.variants.push(r.variant);
  }
  return [...map.values()];
}

export interface ExpectedFailure {
  experiment: string;
  variant: string;
  point: string;
  /** The lesson's teaching point ("verification caught the missing barrier"). */
  lesson: string;
  observed: boolean;
  detail: string;
}

/** Variants broken on purpose: what their caught failure teaches. */
export function expectedFailures(records: RunRecord[]): ExpectedFailure[] {
  return records
    .filter((r) => statusOf(r) === "expected_failure")
    .map((r) => ({
      experiment: r.experiment,
      variant: r.variant,
      point: pointLabel(r.params),
      lesson: r.expected_failure?.lesson ?? "",
      observed: r.expected_failure?.observed !== false,
      detail: r.check_detail ?? "",
    }));
}

export interface StatusCounts {
  timed: number;
  verified: number;
  failed: number;
  skipped: number;
  expected_failure: number;
}

export function statusCounts(records: RunRecord[]): StatusCounts {
  const c: StatusCounts = { timed: 0, verified: 0, failed: 0, skipped: 0, expected_failure: 0 };
  for (const r of records) c[statusOf(r)]++;
  return c;
}

export interface CompareRow {
  key: string;
  experiment: string;
  a_ms: number;
  b_ms: number;
  ratio: number;
  change: "faster" | "slower" | "same";
}

/**
 * Ratio B/A of the median times per record present in both runs; a change is flagged when the
 * ratio leaves [1 - threshold, 1 + threshold] (memlab compare's rule, default 5 %).
 */
export function compareRuns(a: RunJson, b: RunJson, threshold = 0.05): CompareRow[] {
  const inA = new Map(timed(a.records).map((r) => [recordKey(r), r]));
  const rows: CompareRow[] = [];
  for (const rb of timed(b.records)) {
    const ra = inA.get(recordKey(rb));
    if (!ra?.stats || !rb.stats) continue;
    const ratio = rb.stats.median_ms / ra.stats.median_ms;
    rows.push({
      key: recordKey(rb),
      experiment: rb.experiment,
      a_ms: ra.stats.median_ms,
      b_ms: rb.stats.median_ms,
      ratio,
      change: ratio > 1 + threshold ? "slower" : ratio < 1 - threshold ? "faster" : "same",
    });
  }
  return rows;
}
