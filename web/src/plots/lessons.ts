// The plots of a run, per lesson (issue 11 section 1), drawn from the records; model lines from
// the records' predictions or from the models (roofline, stream timeline).
import type { App } from "../app";
import { clear, h, select } from "../dom";
import { t } from "../i18n";
import type { Models } from "../models";
import {
  bandwidthCurve,
  bankSlowdown,
  byExperiment,
  isVendor,
  ladder,
  measuredGantt,
  pointLabel,
  points,
  timed,
  type RunJson,
  type RunRecord,
} from "../records";
import { modelGantt, type TimelineOp } from "../pages/streams";
import {
  curveChart,
  ganttChart,
  groupedBars,
  ladderChart,
  rooflineChart,
  slowdownChart,
  type Reference,
} from "./charts";

function section(titleKey: string, ...content: (HTMLElement | string)[]): HTMLElement {
  return h(
    "section",
    { class: "plot", "data-plot": titleKey },
    h("h3", {}, t(titleKey)),
    ...content,
  );
}

/** memcpy ceiling, theoretical peak and the vendor variant as reference lines. */
function references(run: RunJson, records: RunRecord[], point: string, unit: string): Reference[] {
  const refs: Reference[] = [];
  const dev = run.context?.device as Record<string, number> | undefined;
  if (unit === "GB/s") {
    const memcpy = run.ceilings?.memcpy_d2d;
    if (memcpy?.measured && memcpy.gbps)
      refs.push({ label: t("plot.ref.memcpy"), value: memcpy.gbps });
    if (dev?.peak_bandwidth_gbps)
      refs.push({ label: t("plot.ref.peak"), value: dev.peak_bandwidth_gbps });
  } else if (dev?.peak_fp32_gflops) {
    refs.push({ label: t("plot.ref.peak_fp32"), value: dev.peak_fp32_gflops });
  }
  for (const r of timed(records)) {
    if (!isVendor(r.variant) || pointLabel(r.params) !== point) continue;
    refs.push({ label: r.variant, value: unit === "GB/s" ? (r.gbps ?? 0) : (r.gflops ?? 0) });
  }
  return refs;
}

/** The variant ladder with a point picker (one bar per variant at the chosen axis point). */
export function ladderSection(run: RunJson, records: RunRecord[], highlight?: string): HTMLElement {
  const pts = points(timed(records));
  const box = h("div", { class: "chart" });
  let current = pts[pts.length - 1] ?? "";
  const draw = () => {
    clear(box);
    const bars = ladder(records, current);
    box.append(
      ladderChart(bars, references(run, records, current, bars[0]?.unit ?? "GB/s"), highlight),
    );
  };
  const picker =
    pts.length > 1
      ? h(
          "label",
          { class: "field" },
          h("span", {}, t("plot.point")),
          select(
            pts.map((p) => [p, p]),
            current,
            (v) => ((current = v), draw()),
          ),
        )
      : h("p", { class: "muted" }, current);
  draw();
  return section("plot.ladder", picker, box);
}

export function transfersChart(records: RunRecord[]): HTMLElement {
  const pts = timed(records)
    .filter((r) => r.params.size !== undefined)
    .map((r) => ({
      x: Number(r.params.size),
      y: r.gbps ?? 0,
      series: `${r.variant}${r.params.direction ? ` (${r.params.direction})` : ""}`,
      kind: "measured" as const,
      variant: r.variant,
    }))
    .sort((a, b) => a.series.localeCompare(b.series) || a.x - b.x);
  return curveChart(pts, { x: t("plot.size_bytes"), y: "GB/s", logX: true });
}

async function rooflineSection(
  run: RunJson,
  records: RunRecord[],
  models: Models,
): Promise<HTMLElement> {
  const dev = run.context?.device as Record<string, number> | undefined;
  const pts = timed(records)
    .filter((r) => (r.bytes ?? 0) > 0 && (r.flops ?? 0) > 0 && r.gflops)
    .map((r) => ({ variant: r.variant, intensity: r.flops! / r.bytes!, gflops: r.gflops! }));
  // Keep the largest axis point of each variant (the ladder's point).
  const last = new Map(pts.map((p) => [p.variant, p]));
  const roof: { intensity: number; gflops: number }[] = [];
  if (dev?.peak_bandwidth_gbps && dev.peak_fp32_gflops) {
    for (let e = -3; e <= 10; e += 0.5) {
      const intensity = 2 ** e;
      try {
        const o = await models.run<{ attainable_flops: number }>("roofline", {
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
  return section(
    "plot.roofline",
    rooflineChart([...last.values()], roof),
    h("p", { class: "muted" }, t("plot.roofline_note")),
  );
}

async function streamsSection(
  records: RunRecord[],
  models: Models,
  copyEngines: number,
): Promise<HTMLElement> {
  const withIntervals = timed(records).filter((r) => r.extra?.intervals?.length);
  const box = h("div", {});
  const keys = withIntervals.map((r) => `${r.variant} · ${pointLabel(r.params, ["n", "work"])}`);
  let idx = Math.max(
    0,
    withIntervals.findIndex((r) => r.variant === "depth_first" && r.params.streams === "4"),
  );
  const draw = async () => {
    clear(box);
    const r = withIntervals[idx];
    if (!r) return;
    box.append(h("h4", {}, t("plot.measured_gantt")), ganttChart(measuredGantt(r), { x: "ms" }));
    const f = r.figures ?? {};
    const n = Number(r.params.segments ?? 1);
    if (f.h2d_busy_ms !== undefined) {
      const order =
        r.variant === "breadth_first" ? "breadth" : r.variant === "rounds" ? "rounds" : "depth";
      try {
        const o = await models.run<{ operations: TimelineOp[]; makespan: number }>("timeline", {
          segments: n,
          h2d: f.h2d_busy_ms / n,
          kernel: (f.kernel_busy_ms ?? 0) / n,
          d2h: (f.d2h_busy_ms ?? 0) / n,
          streams: r.variant === "serial" ? 1 : Number(r.params.streams ?? 1),
          copy_engines: Math.min(2, copyEngines),
          order,
          queues: "perstream",
        });
        box.append(
          h(
            "h4",
            {},
            t("plot.model_gantt", {
              ms: o.result.makespan.toFixed(2),
              measured: (f.makespan_ms ?? r.stats?.median_ms ?? 0).toFixed(2),
            }),
          ),
          ganttChart(modelGantt(o.result.operations), { x: "ms" }),
        );
      } catch (e) {
        box.append(h("p", { class: "muted" }, String(e)));
      }
    }
  };
  await draw();
  const picker = select(
    keys.map((k, i) => [String(i), k]),
    String(idx),
    (v) => ((idx = Number(v)), void draw()),
  );
  return section(
    "plot.streams",
    h("label", { class: "field" }, h("span", {}, t("plot.record")), picker),
    box,
  );
}

function histogramSection(records: RunRecord[]): HTMLElement {
  const rows = timed(records)
    .filter((r) => r.params.dist !== undefined)
    .map((r) => ({
      group: r.params.dist!,
      variant: r.variant,
      value: r.gbps ?? 0,
      vendor: isVendor(r.variant),
    }));
  return section("plot.histogram", groupedBars(rows, { y: "GB/s" }));
}

/** All plots of one lesson in a run. */
export async function lessonPlots(
  app: App,
  run: RunJson,
  experiment: string,
  highlight?: string,
): Promise<HTMLElement> {
  const records = byExperiment(run, experiment);
  const out = h("div", { class: "lesson-plots", "data-lesson": experiment });
  const models = app.models;
  switch (experiment) {
    case "coalescing":
    case "misalignment": {
      const axis = experiment === "coalescing" ? "stride" : "offset";
      for (const variant of [...new Set(records.map((r) => r.variant))]) {
        out.append(
          section(
            experiment === "coalescing" ? "plot.gbps_vs_stride" : "plot.gbps_vs_offset",
            h("p", { class: "muted" }, variant),
            curveChart(bandwidthCurve(records, axis, "elem", variant), {
              x: t(experiment === "coalescing" ? "plot.stride" : "plot.offset"),
              y: "GB/s",
              logX: experiment === "coalescing",
            }),
          ),
        );
      }
      break;
    }
    case "bank_conflicts":
      out.append(section("plot.bank_slowdown", slowdownChart(bankSlowdown(records))));
      break;
    case "matmul":
    case "conv2d":
      out.append(await rooflineSection(run, records, models));
      break;
    case "streams":
      out.append(
        await streamsSection(
          records,
          models,
          Number((run.context?.device as Record<string, number>)?.copy_engines ?? 2),
        ),
      );
      break;
    case "transfers":
      out.append(section("plot.transfers", transfersChart(records)));
      break;
    case "histogram":
    case "text_histogram":
      out.append(histogramSection(records));
      break;
  }
  if (timed(records).length > 0 && experiment !== "transfers")
    out.append(ladderSection(run, records, highlight));
  return out;
}
