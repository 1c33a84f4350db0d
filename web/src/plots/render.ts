// One renderer for declared plots (docs/lessons-json.md): every kind drawn from the declaration,
// the lesson's block and the records. No lesson is named here; a lesson without declared plots
// gets the generic ladder.
import * as Plot from "@observablehq/plot";
import type { App } from "../app";
import { clear, h, select } from "../dom";
import { bytes } from "../format";
import { has, t } from "../i18n";
import type { LessonDecl, PlotDecl } from "../lessons";
import { ladderUnit, measuredGantt, pointLabel, type RunJson, type RunRecord } from "../records";
import { ganttChart, rooflineChart } from "./charts";
import {
  defaultPoint,
  ganttRecords,
  plotData,
  rooflineData,
  stackData,
  type Datum,
  type PlotData,
} from "./declared";

function width(): number {
  return Math.max(300, Math.min(680, (document.querySelector("main")?.clientWidth ?? 680) - 8));
}

function empty(): HTMLElement {
  return h("p", { class: "muted" }, t("plot.empty"));
}

export function plotTitle(lesson: string, plot: PlotDecl): string {
  const key = `plot.${lesson}.${plot.id}`;
  return has(key) ? t(key) : (plot.title ?? plot.id);
}

function axisLabel(a: { field: string; unit?: string } | undefined, fallback: string): string {
  if (!a) return fallback;
  const name = a.field.replace(/^(figure|counter):/, "");
  return a.unit ? `${name} (${a.unit})` : name;
}

/** A picker over the points a one-point plot can show; calls draw(point) now and on change. */
function pointPicker(points: string[], first: string, draw: (p: string) => void): HTMLElement {
  draw(first);
  if (points.length <= 1) return h("p", { class: "muted" }, first);
  return h(
    "label",
    { class: "field" },
    h("span", {}, t("plot.point")),
    select(
      points.map((p) => [p, p || "—"]),
      first,
      draw,
    ),
  );
}

function curve(pd: PlotData, plot: PlotDecl, facet: string): HTMLElement {
  const data = pd.data.filter((d) => d.facet === facet);
  if (!data.length) return empty();
  const measured = data.filter((d) => d.kind === "measured");
  const model = data.filter((d) => d.kind === "model");
  const refY = pd.refs.filter((r) => r.axis === "y");
  const refX = pd.refs.filter((r) => r.axis === "x");
  const numeric = measured.every((d) => typeof d.x === "number");
  const ys = measured.map((d) => d.y);
  const logY = !!plot.y?.log && ys.every((y) => y > 0);
  const yMax = Math.max(...ys);
  // References far above the data squash it: keep those within 4x of the largest measured y.
  const shownRefs = refY.filter((r) => r.value <= yMax * 4);
  const xs = measured.map((d) => d.x as number);
  const xRefs = numeric
    ? refX.filter((r) => r.value >= Math.min(...xs) / 4 && r.value <= Math.max(...xs) * 4)
    : [];
  const bands = numeric ? pd.bands : [];
  const refStroke = (d: Datum) => (d.role ? "var(--muted)" : null);
  return Plot.plot({
    width: width(),
    height: 300,
    marginLeft: 60,
    marginRight: 20,
    marginTop: 24,
    x: {
      type: numeric ? (plot.x?.log ? "log" : "linear") : "point",
      ...(numeric && plot.x?.log ? { base: 2 } : {}),
      ...(numeric && plot.x?.unit === "bytes" ? { tickFormat: bytes, ticks: 6 } : {}),
      label: axisLabel(plot.x, ""),
      grid: true,
    },
    y: { type: logY ? "log" : "linear", label: axisLabel(plot.y, ""), grid: true, zero: !logY },
    color: { legend: true },
    marks: [
      Plot.rectX(bands, {
        x1: "from",
        x2: "to",
        fill: "var(--ref)",
        fillOpacity: 0.07,
      }),
      Plot.text(bands, {
        x: (b: { from: number; to: number }) => Math.sqrt(b.from * b.to),
        frameAnchor: "top",
        text: "label",
        dy: -14,
        fontSize: 9,
        fill: "var(--ref)",
      }),
      Plot.ruleX(xRefs, { x: "value", stroke: "var(--ref)", strokeDasharray: "2 3" }),
      Plot.text(xRefs, {
        x: "value",
        frameAnchor: "bottom",
        text: "label",
        dy: -4,
        dx: 3,
        textAnchor: "start",
        fontSize: 10,
        fill: "var(--ref)",
      }),
      Plot.ruleY(shownRefs, { y: "value", stroke: "var(--ref)", strokeDasharray: "3 3" }),
      Plot.text(shownRefs, {
        y: "value",
        frameAnchor: "right",
        text: "label",
        dy: -6,
        textAnchor: "end",
        fontSize: 10,
        fill: "var(--ref)",
      }),
      Plot.line(
        measured.filter((d) => !d.role),
        { x: "x", y: "y", z: "series", stroke: "series", strokeWidth: 2 },
      ),
      // The vendor and baseline series: references, dotted.
      Plot.line(
        measured.filter((d) => d.role),
        { x: "x", y: "y", z: "series", stroke: "series", strokeWidth: 1.5, strokeDasharray: "1 3" },
      ),
      Plot.dot(measured, {
        x: "x",
        y: "y",
        stroke: "series",
        fill: (d: Datum) => refStroke(d) ?? d.series,
        r: 3,
        tip: true,
        title: (d: Datum) =>
          `${d.variant} ${d.series !== d.variant ? d.series : ""}\n${d.x}: ${d.y.toPrecision(4)}\n${d.point}`,
      }),
      Plot.line(model, {
        x: "x",
        y: "y",
        z: "series",
        stroke: "series",
        strokeDasharray: "5 4",
        strokeOpacity: 0.8,
      }),
    ],
    caption: model.length ? t("plot.model_dashed") : undefined,
  }) as HTMLElement;
}

function bars(pd: PlotData, plot: PlotDecl, point: string, facet: string): HTMLElement {
  const data = pd.data.filter((d) => d.point === point && d.facet === facet);
  const measured = data.filter((d) => d.kind === "measured");
  if (!measured.length) return empty();
  const model = data.filter((d) => d.kind === "model");
  const refY = pd.refs.filter((r) => r.axis === "y");
  const grouped = !!plot.series && plot.series !== plot.x?.field;
  const unit = axisLabel(plot.y, "");
  if (!grouped) {
    const domain = [...new Set(measured.map((d) => String(d.x)))];
    const max = Math.max(...measured.map((d) => d.y), ...model.map((d) => d.y));
    const refs = refY.filter((r) => r.value <= max * 4);
    const top = Math.max(max, ...refs.map((r) => r.value));
    const logX = !!plot.y?.log && measured.every((d) => d.y > 0);
    // A log scale has no zero: bars start at half the smallest value.
    const floor = logX ? Math.min(...measured.map((d) => d.y), ...refs.map((r) => r.value)) / 2 : 0;
    return Plot.plot({
      width: width(),
      height: 40 + 26 * domain.length + 12 * refs.length,
      marginTop: 14 + 12 * refs.length,
      marginLeft: 150,
      marginRight: 60,
      x: logX
        ? { type: "log", label: unit, grid: true, domain: [floor, top * 1.5] }
        : { label: unit, grid: true, domain: [0, top * 1.05] },
      y: { label: null, domain },
      marks: [
        Plot.barX(measured, {
          y: (d: Datum) => String(d.x),
          x1: () => floor,
          x2: "y",
          fill: (d: Datum) => (d.role ? "var(--muted)" : "var(--accent)"),
          tip: true,
          title: (d: Datum) => `${d.x}: ${d.y.toPrecision(4)} ${plot.y?.unit ?? ""}`,
        }),
        Plot.tickX(model, {
          y: (d: Datum) => String(d.x),
          x: "y",
          stroke: "var(--warn)",
          strokeWidth: 2,
          strokeDasharray: "3 2",
        }),
        Plot.ruleX(refs, { x: "value", stroke: "var(--ref)", strokeDasharray: "3 3" }),
        ...refs.map((r, i) =>
          Plot.text([r], {
            x: "value",
            frameAnchor: "top",
            text: "label",
            dy: -6 - 12 * (refs.length - 1 - i),
            textAnchor: "middle",
            fill: "var(--ref)",
            fontSize: 10,
          }),
        ),
      ],
      caption: model.length ? t("plot.model_tick") : undefined,
    }) as HTMLElement;
  }
  return Plot.plot({
    width: width(),
    height: 320,
    marginLeft: 60,
    marginBottom: 50,
    fx: { label: axisLabel(plot.x, ""), tickRotate: measured.length > 24 ? -30 : 0 },
    x: { axis: null },
    y: { label: unit, grid: true, type: plot.y?.log ? "log" : "linear" },
    color: { legend: true, type: "categorical" },
    marks: [
      Plot.barY(measured, {
        fx: (d: Datum) => String(d.x),
        x: "series",
        y: "y",
        fill: "series",
        tip: true,
      }),
      Plot.ruleY(
        refY.filter((r) => r.value <= Math.max(...measured.map((d) => d.y)) * 4),
        { y: "value", stroke: "var(--ref)", strokeDasharray: "3 3" },
      ),
      Plot.ruleY([0]),
    ],
  }) as HTMLElement;
}

function heatmap(pd: PlotData, plot: PlotDecl, point: string): HTMLElement {
  const data = pd.data.filter((d) => d.kind === "measured" && d.point === point);
  if (!data.length) return empty();
  return Plot.plot({
    width: Math.min(width(), 120 + 70 * new Set(data.map((d) => d.x)).size),
    height: 60 + 44 * new Set(data.map((d) => d.series)).size,
    marginLeft: 80,
    padding: 0.05,
    x: { label: plot.heat?.col ?? "", type: "band" },
    y: { label: plot.heat?.row ?? "", type: "band" },
    color: { scheme: "blues", legend: true, label: axisLabel(plot.y, "") },
    marks: [
      Plot.cell(data, { x: (d: Datum) => String(d.x), y: "series", fill: "y", tip: true }),
      Plot.text(data, {
        x: (d: Datum) => String(d.x),
        y: "series",
        text: (d: Datum) => d.y.toPrecision(3),
        fill: "black",
        fontSize: 10,
      }),
    ],
  }) as HTMLElement;
}

function stacked(plot: PlotDecl, records: RunRecord[], point: string): HTMLElement {
  const parts = stackData(plot, records).filter((p) => p.point === point);
  if (!parts.length) return empty();
  const series = [...new Set(parts.map((p) => p.series))];
  return Plot.plot({
    width: width(),
    height: 320,
    marginLeft: 60,
    marginBottom: 70,
    fx: { label: axisLabel(plot.x, "") },
    x: { label: null, domain: series, tickRotate: -30 },
    y: { label: axisLabel(plot.y, ""), grid: true },
    color: { legend: true, type: "categorical" },
    marks: [
      Plot.barY(parts, { fx: "x", x: "series", y: "value", fill: "part", tip: true }),
      Plot.ruleY([0]),
    ],
  }) as HTMLElement;
}

async function roofline(
  app: App,
  run: RunJson,
  plot: PlotDecl,
  records: RunRecord[],
): Promise<HTMLElement> {
  const dev = (run.context?.device ?? {}) as Record<string, number>;
  const pts = rooflineData(plot, records);
  // The largest axis point of each variant (the last in run order).
  const last = new Map(pts.map((p) => [p.variant, p]));
  const roof: { intensity: number; gflops: number }[] = [];
  if (dev.peak_bandwidth_gbps && dev.peak_fp32_gflops) {
    for (let e = -3; e <= 10; e += 0.5) {
      const intensity = 2 ** e;
      try {
        const o = await app.models.run<{ attainable_flops: number }>("roofline", {
          bytes: 1e9,
          flops: intensity * 1e9,
          peak_bandwidth: dev.peak_bandwidth_gbps * 1e9,
          peak_flops: dev.peak_fp32_gflops * 1e9,
        });
        roof.push({ intensity, gflops: o.result.attainable_flops / 1e9 });
      } catch {
        break;
      }
    }
  }
  return h(
    "div",
    {},
    rooflineChart([...last.values()], roof),
    h("p", { class: "muted" }, t("plot.roofline_note")),
  );
}

function gantt(plot: PlotDecl, records: RunRecord[]): HTMLElement {
  const withIntervals = ganttRecords(plot, records);
  if (!withIntervals.length) return empty();
  const box = h("div", {});
  const draw = (i: number) => {
    clear(box);
    const r = withIntervals[i]!;
    let bars = measuredGantt(r);
    let order = ["H2D", "SM", "D2H"].filter((l) => bars.some((b) => b.lane === l));
    // Kernels only (no copies): one lane per stream, so that their overlap shows.
    if (order.length === 1) {
      bars = bars.map((b) => ({ ...b, lane: `stream ${b.stream}` }));
      order = [...new Set(bars.map((b) => b.lane))].sort();
    }
    box.append(h("h4", {}, t("plot.measured_gantt")), ganttChart(bars, { x: "ms", lanes: order }));
    const p = r.prediction;
    if (p?.predicted_ms)
      box.append(
        h(
          "p",
          { class: "muted" },
          t("plot.gantt_model", {
            model: p.model,
            predicted: p.predicted_ms.toFixed(3),
            measured: p.measured_ms.toFixed(3),
          }),
        ),
      );
  };
  // The record with the most intervals first (the pipeline at its widest).
  let first = 0;
  withIntervals.forEach((r, i) => {
    if ((r.extra!.intervals!.length ?? 0) > (withIntervals[first]!.extra!.intervals!.length ?? 0))
      first = i;
  });
  draw(first);
  const keys = withIntervals.map((r) => `${r.variant} · ${pointLabel(r.params)}`);
  return h(
    "div",
    {},
    h(
      "label",
      { class: "field" },
      h("span", {}, t("plot.record")),
      select(
        keys.map((k, i) => [String(i), k]),
        String(first),
        (v) => draw(Number(v)),
      ),
    ),
    box,
  );
}

/** One declared plot as a section: title, picker where the plot shows one point, the chart. */
export async function renderPlot(
  app: App,
  run: RunJson,
  name: string,
  lesson: LessonDecl,
  plot: PlotDecl,
  records: RunRecord[],
): Promise<HTMLElement> {
  const sec = h(
    "section",
    { class: "plot", "data-plot": plot.id, "data-kind": plot.kind },
    h("h3", {}, plotTitle(name, plot)),
  );
  if (plot.kind === "roofline") {
    sec.append(await roofline(app, run, plot, records));
    return sec;
  }
  if (plot.kind === "gantt") {
    sec.append(gantt(plot, records));
    return sec;
  }
  const pd = plotData(run, lesson, plot, records, t);
  if (plot.kind === "curve") {
    for (const f of pd.facets.length ? pd.facets : [""]) {
      if (f) sec.append(h("h4", {}, f));
      sec.append(curve(pd, plot, f));
    }
    return sec;
  }
  // One-point kinds: bars, ladder, heatmap, stacked.
  const box = h("div", { class: "chart" });
  const points =
    plot.kind === "stacked"
      ? [...new Set(stackData(plot, records).map((p) => p.point))]
      : pd.points;
  const first =
    plot.kind === "stacked" ? (points[points.length - 1] ?? "") : defaultPoint(pd.data, points);
  const draw = (p: string) => {
    clear(box);
    if (plot.kind === "heatmap") box.append(heatmap(pd, plot, p));
    else if (plot.kind === "stacked") box.append(stacked(plot, records, p));
    else
      for (const f of pd.facets.length ? pd.facets : [""]) {
        if (f) box.append(h("h4", {}, f));
        box.append(bars(pd, plot, p, f));
      }
  };
  sec.append(pointPicker(points, first, draw), box);
  return sec;
}

/** The generic ladder: every variant at one point, in GB/s or GFLOP/s (what the records favour). */
export function ladderDecl(records: RunRecord[]): PlotDecl {
  const gflops = ladderUnit(records) === "GFLOP/s";
  return {
    id: "ladder",
    kind: "ladder",
    title: t("plot.ladder"),
    x: { field: "variant" },
    y: { field: gflops ? "gflops" : "gbps", unit: gflops ? "GFLOP/s" : "GB/s" },
    references: gflops ? ["peak_fp32", "vendor"] : ["memcpy", "peak_bandwidth", "vendor"],
  };
}

/** All plots of one lesson in a run: its declared plots, else the ladder. */
export async function lessonPlots(
  app: App,
  run: RunJson,
  name: string,
  lesson: LessonDecl,
): Promise<HTMLElement> {
  const records = run.records.filter((r) => r.experiment === name);
  const out = h("div", { class: "lesson-plots", "data-lesson": name });
  const plots = lesson.plots?.length ? lesson.plots : [ladderDecl(records)];
  for (const plot of plots) {
    try {
      out.append(await renderPlot(app, run, name, lesson, plot, records));
    } catch (e) {
      out.append(h("p", { class: "error" }, `${plot.id}: ${String(e)}`));
    }
  }
  return out;
}
