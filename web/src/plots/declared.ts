// From a plot declaration (docs/lessons-json.md "Plot") and the records to plot data: pure, no
// DOM (tested in test/declared.test.ts). plots/render.ts draws what this returns.
import type { Finding, LessonDecl, PlotDecl } from "../lessons";
import { pointLabel, statusOf, timed, type RunJson, type RunRecord } from "../records";

/** y of a record for a declared field, or null where the record has none. */
export function fieldValue(r: RunRecord, field: string): number | null {
  let v: unknown;
  if (field === "median_ms") v = r.stats?.median_ms;
  else if (field === "speedup") v = r.speedup_over_baseline;
  else if (field === "slowdown")
    v = r.speedup_over_baseline ? 1 / r.speedup_over_baseline : undefined;
  else if (field.startsWith("figure:")) v = r.figures?.[field.slice(7)];
  else if (field.startsWith("counter:")) v = r.counters?.[field.slice(8)];
  else v = (r as unknown as Record<string, unknown>)[field];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

const TIME_UNITS = ["s", "ms", "us", "µs", "ns", "cycles", "cycle"];

/** Whether y grows with time (its model is y × predicted/measured) or is a rate (the inverse). */
export function timeLike(field: string, unit = ""): boolean {
  if (field === "median_ms" || field === "slowdown") return true;
  if (["gbps", "gflops", "speedup"].includes(field) || field.startsWith("pct_")) return false;
  const u = unit.toLowerCase().split("/")[0]!.trim();
  return TIME_UNITS.includes(u) || /_(ms|us|ns|cycles)$/.test(field);
}

/** The model's y for a record: y scaled by the prediction's time ratio; null without one. */
export function modelValue(r: RunRecord, y: number, field: string, unit?: string): number | null {
  const p = r.prediction;
  if (!p || !(p.predicted_ms > 0) || !(p.measured_ms > 0)) return null;
  return timeLike(field, unit)
    ? (y * p.predicted_ms) / p.measured_ms
    : (y * p.measured_ms) / p.predicted_ms;
}

/** The x of a record: the variant, or the axis value (a number where it parses as one). */
export function xValue(r: RunRecord, field: string): number | string | null {
  if (field === "variant") return r.variant;
  const v = r.params[field];
  if (v === undefined) return null;
  const n = Number(v);
  return v.trim() !== "" && Number.isFinite(n) ? n : v;
}

export function seriesOf(r: RunRecord, series: string | undefined): string {
  if (!series) return "";
  if (series === "variant") return r.variant;
  return `${series}=${r.params[series] ?? "?"}`;
}

/** The records a plot draws: its where, its variants; every status (callers pick). */
export function selected(records: RunRecord[], plot: PlotDecl): RunRecord[] {
  return records.filter(
    (r) =>
      (!plot.variants?.length || plot.variants.includes(r.variant)) &&
      Object.entries(plot.where ?? {}).every(([k, v]) => r.params[k] === v),
  );
}

export interface Datum {
  x: number | string;
  y: number;
  series: string;
  variant: string;
  facet: string;
  kind: "measured" | "model";
  /** Drawn as a reference line: the lesson's vendor or baseline (references vendor/baseline). */
  role: "" | "vendor" | "baseline";
  point: string;
}

export interface RefLine {
  label: string;
  value: number;
  /** "y": a horizontal rule; "x": a vertical one (bytes axes). */
  axis: "x" | "y";
}

export interface RefBand {
  label: string;
  from: number;
  to: number;
  value: number | null;
}

export interface PlotData {
  data: Datum[];
  refs: RefLine[];
  bands: RefBand[];
  facets: string[];
  /** Points (labels of the other axes) the records span; bars/ladder pick one. */
  points: string[];
}

function roleOf(lesson: LessonDecl, plot: PlotDecl, variant: string): Datum["role"] {
  const refs = plot.references ?? [];
  if (refs.includes("vendor") && lesson.vendor?.includes(variant)) return "vendor";
  if (refs.includes("baseline") && lesson.baseline === variant) return "baseline";
  return "";
}

/** The axis point of a record without the plot's own x, series and facet axes. */
export function otherAxes(r: RunRecord, plot: PlotDecl): string {
  const skip = [plot.x?.field, plot.series, plot.facet, plot.heat?.row, plot.heat?.col].filter(
    (s): s is string => !!s && s !== "variant",
  );
  return pointLabel(r.params, skip);
}

/** Reference lines of the declaration: memcpy, peaks (y), L1/L2 sizes (x, bytes). */
export function references(
  run: RunJson,
  plot: PlotDecl,
  t: (k: string) => string,
  yScale = 1,
): RefLine[] {
  const refs = plot.references ?? [];
  const dev = (run.context?.device ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" && v > 0 ? v : null);
  const out: RefLine[] = [];
  const memcpy = run.ceilings?.memcpy_d2d;
  if (refs.includes("memcpy") && memcpy?.measured !== false && num(memcpy?.gbps))
    out.push({ label: t("plot.ref.memcpy"), value: memcpy!.gbps! * yScale, axis: "y" });
  const bw = num(dev.peak_bandwidth_gbps);
  if (refs.includes("peak_bandwidth") && bw)
    out.push({ label: t("plot.ref.peak"), value: bw * yScale, axis: "y" });
  const fp = num(dev.peak_fp32_gflops);
  if (refs.includes("peak_fp32") && fp)
    out.push({ label: t("plot.ref.peak_fp32"), value: fp * yScale, axis: "y" });
  for (const [ref, key, label] of [
    ["l1_bytes", "l1_bytes", "L1"],
    ["l1_bytes", "smem_per_sm_bytes", "L1/smem"],
    ["l2_bytes", "l2_bytes", "L2"],
  ] as const) {
    if (!refs.includes(ref)) continue;
    const v = num(dev[key]);
    if (v && !out.some((o) => o.axis === "x" && o.label.startsWith(label.slice(0, 2))))
      out.push({ label, value: v, axis: "x" });
  }
  return out;
}

/** y in the declared unit: TFLOP/s of a gflops field, TB/s of gbps, us of median_ms. */
export function unitScale(field: string, unit = ""): number {
  if (field === "gflops" && unit === "TFLOP/s") return 1e-3;
  if (field === "gbps" && unit === "TB/s") return 1e-3;
  if (field === "median_ms" && (unit === "us" || unit === "µs")) return 1e3;
  return 1;
}

/** The finding ranges of the lesson (x_from..x_to) as bands; the value as a rule on the same y. */
export function findingBands(findings: Finding[] | undefined, yUnit = ""): RefBand[] {
  return (findings ?? [])
    .filter((f) => typeof f.x_from === "number" && typeof f.x_to === "number")
    .map((f) => ({
      label: `${f.label} ${fmt(f.value)}${f.unit ? " " + f.unit : ""}`,
      from: f.x_from!,
      to: f.x_to!,
      value: !yUnit || !f.unit || f.unit === yUnit ? f.value : null,
    }));
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3);
}

/** Everything a curve, bars, ladder or heatmap draws, from the declaration and the records. */
export function plotData(
  run: RunJson,
  lesson: LessonDecl,
  plot: PlotDecl,
  records: RunRecord[],
  t: (k: string) => string = (k) => k,
): PlotData {
  const yField = plot.y?.field ?? "gbps";
  const xField = plot.x?.field ?? "variant";
  const scale = unitScale(yField, plot.y?.unit);
  const data: Datum[] = [];
  const facets: string[] = [];
  const points: string[] = [];
  for (const r of timed(selected(records, plot))) {
    const x = plot.kind === "heatmap" ? (plot.heat?.col ?? xField) : xField;
    const xv = xValue(r, x);
    const yv = fieldValue(r, yField);
    if (xv === null || yv === null) continue;
    const facet = plot.facet ? `${plot.facet}=${r.params[plot.facet] ?? "?"}` : "";
    if (!facets.includes(facet)) facets.push(facet);
    const point = otherAxes(r, plot);
    if (!points.includes(point)) points.push(point);
    const series =
      plot.kind === "heatmap"
        ? String(r.params[plot.heat?.row ?? ""] ?? "")
        : seriesOf(r, plot.series);
    const base = { x: xv, series, variant: r.variant, facet, point };
    const role = roleOf(lesson, plot, r.variant);
    data.push({ ...base, y: yv * scale, kind: "measured", role });
    if (plot.model) {
      const m = modelValue(r, yv, yField, plot.y?.unit);
      if (m !== null) data.push({ ...base, y: m * scale, kind: "model", role });
    }
  }
  data.sort(
    (a, b) =>
      a.facet.localeCompare(b.facet, "en", { numeric: true }) ||
      a.series.localeCompare(b.series, "en", { numeric: true }) ||
      (typeof a.x === "number" && typeof b.x === "number" ? a.x - b.x : 0),
  );
  const refs = references(run, plot, t, scale);
  const bands = (plot.references ?? []).includes("findings")
    ? findingBands(lesson.findings, plot.y?.unit)
    : [];
  return { data, refs, bands, facets, points };
}

/**
 * The point a one-point plot (bars, ladder) shows first: where the most records were measured,
 * the last such (the largest default point comes last in a run).
 */
export function defaultPoint(data: Datum[], points: string[]): string {
  let best = points[points.length - 1] ?? "";
  let most = -1;
  for (const p of points) {
    const n = data.filter((d) => d.point === p && d.kind === "measured").length;
    if (n >= most) {
      most = n;
      best = p;
    }
  }
  return best;
}

export interface StackPart {
  x: string;
  series: string;
  part: string;
  value: number;
  point: string;
}

/** The name of the part of y that the declared parts leave (y minus their sum). */
export const REST = "rest";

/**
 * Kind stacked: one bar per x (an axis value or the variant) and series, y split into the
 * declared parts and the rest (y minus the parts, where y is given and exceeds them).
 */
export function stackData(plot: PlotDecl, records: RunRecord[]): StackPart[] {
  const out: StackPart[] = [];
  for (const r of timed(selected(records, plot))) {
    const x = xValue(r, plot.x?.field ?? "variant");
    if (x === null) continue;
    const base = {
      x: String(x),
      series: seriesOf(r, plot.series ?? "variant"),
      point: otherAxes(r, plot),
    };
    let sum = 0;
    for (const part of plot.stack ?? []) {
      const v = fieldValue(r, part);
      if (v === null) continue;
      sum += v;
      out.push({ ...base, part: part.replace(/^(figure|counter):/, ""), value: v });
    }
    const y = plot.y ? fieldValue(r, plot.y.field) : null;
    if (y !== null && y > sum) out.push({ ...base, part: REST, value: y - sum });
  }
  return out;
}

export interface RooflineDatum {
  variant: string;
  intensity: number;
  gflops: number;
  point: string;
}

/** Kind roofline: measured variants at their arithmetic intensity (flops / useful bytes). */
export function rooflineData(plot: PlotDecl, records: RunRecord[]): RooflineDatum[] {
  return timed(selected(records, plot))
    .filter((r) => (r.bytes ?? 0) > 0 && (r.flops ?? 0) > 0 && r.gflops)
    .map((r) => ({
      variant: r.variant,
      intensity: r.flops! / r.bytes!,
      gflops: r.gflops!,
      point: pointLabel(r.params),
    }));
}

/** Kind gantt: the records with measured intervals. */
export function ganttRecords(plot: PlotDecl, records: RunRecord[]): RunRecord[] {
  return timed(selected(records, plot)).filter((r) => r.extra?.intervals?.length);
}

/** Records with a prediction: predicted against measured time (the lesson page's table). */
export function predictions(records: RunRecord[]): {
  variant: string;
  point: string;
  model: string;
  predicted_ms: number;
  measured_ms: number;
  ratio: number;
}[] {
  return records
    .filter((r) => statusOf(r) === "timed" && r.prediction && r.prediction.predicted_ms > 0)
    .map((r) => ({
      variant: r.variant,
      point: pointLabel(r.params),
      model: r.prediction!.model,
      predicted_ms: r.prediction!.predicted_ms,
      measured_ms: r.prediction!.measured_ms,
      ratio: r.prediction!.measured_over_predicted,
    }));
}
