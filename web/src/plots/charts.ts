// Observable Plot charts shared by the explainers, the lesson pages and the results.
import * as Plot from "@observablehq/plot";
import { h } from "../dom";
import { has, t } from "../i18n";
import type { GanttBar, LadderBar } from "../records";

const WIDTH = 680;

function width(): number {
  return Math.max(300, Math.min(WIDTH, (document.querySelector("main")?.clientWidth ?? WIDTH) - 8));
}

function empty(): HTMLElement {
  return h("p", { class: "muted" }, t("plot.empty"));
}

export interface Reference {
  label: string;
  value: number;
}

/** The variant ladder: one bar per variant, references (memcpy, peak, vendor) as rules. */
export function ladderChart(bars: LadderBar[], refs: Reference[], highlight?: string): HTMLElement {
  if (!bars.length) return empty();
  const unit = bars[0]!.unit;
  const max = Math.max(...bars.map((b) => b.value), ...refs.map((r) => r.value));
  return Plot.plot({
    width: width(),
    height: 40 + 26 * bars.length + 12 * refs.length,
    marginTop: 14 + 12 * refs.length,
    marginLeft: 150,
    marginRight: 60,
    x: { label: unit, grid: true, domain: [0, max * 1.05] },
    y: { label: null, domain: bars.map((b) => b.variant) },
    marks: [
      Plot.barX(bars, {
        y: "variant",
        x: "value",
        fill: (b: LadderBar) =>
          b.variant === highlight
            ? "var(--warn)"
            : b.vendor
              ? "var(--muted)"
              : !b.verified
                ? "var(--bad)"
                : "var(--accent)",
        tip: true,
        title: (b: LadderBar) =>
          `${b.variant}: ${b.value.toFixed(1)} ${b.unit}` +
          (b.speedup ? `, ${b.speedup.toFixed(2)}× ${t("plot.over_baseline")}` : ""),
      }),
      Plot.text(bars, {
        y: "variant",
        x: "value",
        text: (b: LadderBar) => (b.speedup ? `${b.speedup.toFixed(2)}×` : ""),
        dx: 4,
        textAnchor: "start",
        fontSize: 10,
      }),
      Plot.ruleX(refs, { x: "value", stroke: "var(--ref)", strokeDasharray: "3 3" }),
      // Labels above the frame, staggered so that close references do not overlap.
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
  }) as HTMLElement;
}

/** A Gantt chart: lanes (H2D engine, SMs, D2H engine) against time, one colour per segment. */
export function ganttChart(bars: GanttBar[], o: { x: string; lanes?: string[] }): HTMLElement {
  if (!bars.length) return empty();
  const lanes = o.lanes ?? ["H2D", "SM", "D2H"];
  return Plot.plot({
    width: width(),
    height: 40 + 38 * lanes.length,
    marginLeft: 110,
    x: { label: o.x, grid: true },
    y: {
      label: null,
      domain: lanes,
      tickFormat: (l: string) => (has(`gantt.lane.${l}`) ? t(`gantt.lane.${l}`) : l),
    },
    color: { type: "categorical", scheme: "tableau10" },
    marks: [
      Plot.barX(bars, {
        y: "lane",
        x1: "start",
        x2: "end",
        fill: (b: GanttBar) => b.segment % 10,
        inset: 2,
        tip: true,
        title: (b: GanttBar) =>
          `${b.label} (stream ${b.stream}): ${b.start.toFixed(3)}–${b.end.toFixed(3)}`,
      }),
      Plot.text(bars, {
        y: "lane",
        x: (b: GanttBar) => (b.start + b.end) / 2,
        text: "label",
        fill: "white",
        fontSize: 10,
      }),
    ],
  }) as HTMLElement;
}

export interface RooflinePoint {
  variant: string;
  intensity: number;
  gflops: number;
}

/** Roofline: measured variants as points; the roof from the roofline model (its attainable). */
export function rooflineChart(
  pts: RooflinePoint[],
  roof: { intensity: number; gflops: number }[],
): HTMLElement {
  if (!pts.length) return empty();
  return Plot.plot({
    width: width(),
    height: 320,
    marginLeft: 60,
    marginRight: 120,
    x: { type: "log", label: t("plot.intensity"), grid: true },
    y: { type: "log", label: "GFLOP/s", grid: true },
    marks: [
      Plot.line(roof, { x: "intensity", y: "gflops", stroke: "var(--ref)", strokeWidth: 2 }),
      Plot.dot(pts, { x: "intensity", y: "gflops", fill: "var(--accent)", r: 4, tip: true }),
      Plot.text(pts, {
        x: "intensity",
        y: "gflops",
        text: "variant",
        dx: 6,
        textAnchor: "start",
        fontSize: 10,
      }),
    ],
  }) as HTMLElement;
}

/** The class view: each learner's best time (passed / not yet) beside the lesson's variants. */
export function bestTimesChart(
  bars: { label: string; value: number; kind: "passed" | "failed" | "variant" }[],
): HTMLElement {
  if (!bars.length) return empty();
  const fill = { passed: "var(--good)", failed: "var(--bad)", variant: "var(--muted)" };
  const max = Math.max(...bars.map((b) => b.value));
  return Plot.plot({
    width: width(),
    height: 40 + 24 * bars.length,
    marginLeft: 150,
    marginRight: 70,
    x: { label: "ms", grid: true, domain: [0, max * 1.05] },
    y: { label: null, domain: bars.map((b) => b.label) },
    marks: [
      Plot.barX(bars, {
        y: "label",
        x: "value",
        fill: (b: (typeof bars)[number]) => fill[b.kind],
        tip: true,
        title: (b: (typeof bars)[number]) => `${b.label}: ${b.value.toFixed(4)} ms`,
      }),
      Plot.text(bars, {
        y: "label",
        x: "value",
        text: (b: (typeof bars)[number]) => `${b.value.toFixed(3)} ms`,
        dx: 4,
        textAnchor: "start",
        fontSize: 10,
      }),
    ],
  }) as HTMLElement;
}
