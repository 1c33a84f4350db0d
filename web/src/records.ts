// Run records (src/report/json.cpp, schema_version 1) and their transforms into plot data.
// Nothing here derives a figure a model or the runner did not write into the record.
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
  skipped?: boolean;
  reason?: string;
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
  records: RunRecord[];
}

/** Records that were measured (not skipped, timed, with statistics). */
export function timed(records: RunRecord[]): RunRecord[] {
  return records.filter((r) => !r.skipped && r.timed !== false && r.stats);
}

export function experiments(run: RunJson): string[] {
  const seen: string[] = [];
  for (const r of run.records) if (!seen.includes(r.experiment)) seen.push(r.experiment);
  return seen;
}

export function byExperiment(run: RunJson, name: string): RunRecord[] {
  return run.records.filter((r) => r.experiment === name);
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

export interface CurvePoint {
  x: number;
  y: number;
  series: string;
  kind: "measured" | "model";
  variant: string;
}

/**
 * GB/s against one axis (stride, offset): one series per element size, the model's prediction
 * as a second curve of each series.
 */
export function bandwidthCurve(
  records: RunRecord[],
  xAxis: string,
  seriesAxis: string,
  variant: string,
): CurvePoint[] {
  const out: CurvePoint[] = [];
  for (const r of timed(records)) {
    if (r.variant !== variant || r.params[xAxis] === undefined) continue;
    const x = Number(r.params[xAxis]);
    const series = `${seriesAxis} ${r.params[seriesAxis] ?? "?"}`;
    if (r.gbps !== undefined) out.push({ x, y: r.gbps, series, kind: "measured", variant });
    const p = predictedGbps(r);
    if (p !== null) out.push({ x, y: p, series, kind: "model", variant });
  }
  return out.sort((a, b) => a.series.localeCompare(b.series, "en", { numeric: true }) || a.x - b.x);
}

export interface SlowdownPoint {
  stride: number;
  word: string;
  slowdown: number;
  model_degree: number | null;
}

/** Bank conflicts: measured slowdown (over the baseline) and the model's degree per stride. */
export function bankSlowdown(records: RunRecord[]): SlowdownPoint[] {
  const out: SlowdownPoint[] = [];
  for (const r of timed(records)) {
    const s = r.params.stride;
    if (s === undefined || !r.speedup_over_baseline) continue;
    // Only the strided variant follows the stride axis (stride1 etc. repeat their own access).
    if (r.variant !== "strided") continue;
    out.push({
      stride: Number(s),
      word: r.params.word ?? "4",
      slowdown: 1 / r.speedup_over_baseline,
      model_degree: r.figures?.model_degree ?? null,
    });
  }
  // One point per (word, stride), should a run repeat a point.
  const seen = new Set<string>();
  return out
    .sort((a, b) => a.word.localeCompare(b.word) || a.stride - b.stride)
    .filter((p) => {
      const k = `${p.word}/${p.stride}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
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
  kind: "failed" | "skipped" | "note";
  text: string;
}

/** Failed checks, skipped variants and warnings (notes), one line each. */
export function failures(run: RunJson): Failure[] {
  const out: Failure[] = [];
  for (const r of run.records) {
    const key = recordKey(r);
    if (r.skipped) out.push({ record: key, kind: "skipped", text: r.reason ?? "" });
    else if (r.verified === false)
      out.push({ record: key, kind: "failed", text: r.check_detail ?? `error ${r.check_error}` });
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
