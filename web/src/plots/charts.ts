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

/**
 * Where the labels of points in one column go (pixels from the top): each as near its point's
 * `ys[i]` as it can be, none closer than `gap` to the next, inside [lo, hi] where there is room.
 * Returned in the input's order. Variants of a lesson often share an intensity and reach nearly
 * the same GFLOP/s (matmul's do), so their labels would print over each other.
 */
export function spreadLabels(ys: number[], gap: number, lo: number, hi: number): number[] {
  const order = ys.map((_, i) => i).sort((a, b) => ys[a]! - ys[b]! || a - b);
  // Clusters of labels that touch, each centred on its points' mean height: adding a label to the
  // bottom may make the last cluster touch the one above, which merges them (and re-centres).
  const clusters: { first: number; n: number; sum: number }[] = [];
  const top = (c: { n: number; sum: number }) => c.sum / c.n - ((c.n - 1) * gap) / 2;
  for (let k = 0; k < order.length; k++) {
    clusters.push({ first: k, n: 1, sum: ys[order[k]!]! });
    while (clusters.length > 1) {
      const c = clusters[clusters.length - 1]!,
        p = clusters[clusters.length - 2]!;
      if (top(p) + p.n * gap <= top(c)) break;
      p.n += c.n;
      p.sum += c.sum;
      clusters.pop();
    }
  }
  const pos = new Array<number>(ys.length);
  for (const c of clusters) {
    for (let j = 0; j < c.n; j++) pos[order[c.first + j]!] = top(c) + j * gap;
  }
  // Into [lo, hi]: down from the top, then back up from the bottom, keeping the gaps where the
  // room allows (never above `lo`).
  let prev = -Infinity;
  for (const i of order) {
    pos[i] = Math.max(pos[i]!, prev + gap, lo);
    prev = pos[i]!;
  }
  let next = Infinity;
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k]!;
    pos[i] = Math.max(lo, Math.min(pos[i]!, hi, next - gap));
    next = pos[i]!;
  }
  return pos;
}

/** A log axis from the domain [d0, d1] onto the pixels [r0, r1], and back. */
function logAxis(d0: number, d1: number, r0: number, r1: number) {
  const k = (r1 - r0) / Math.log(d1 / d0);
  return {
    to: (v: number) => r0 + Math.log(v / d0) * k,
    from: (p: number) => d0 * Math.exp((p - r0) / k),
  };
}

/**
 * The roofline's right margin, which holds the point labels: as wide as the longest name needs
 * (about 5.6 px a character at 10 px, 20 px with the offset from the point), between 130 px and 40%
 * of the plot's width `w`; `shown` cuts a name that still does not fit with an ellipsis (the point's
 * tip and the table below give it whole).
 */
export function labelMargin(
  names: string[],
  w: number,
): { marginRight: number; shown: (name: string) => string } {
  const charPx = 5.6;
  const longest = Math.max(0, ...names.map((n) => n.length));
  const marginRight = Math.ceil(Math.min(Math.max(130, 20 + longest * charPx), 0.4 * w));
  const fit = Math.max(4, Math.floor((marginRight - 20) / charPx));
  const shown = (name: string) => (name.length <= fit ? name : `${name.slice(0, fit - 1)}…`);
  return { marginRight, shown };
}

/** Roofline: measured variants as points; the roof from the roofline model (its attainable). */
export function rooflineChart(
  pts: RooflinePoint[],
  roof: { intensity: number; gflops: number }[],
): HTMLElement {
  if (!pts.length) return empty();
  const height = 320,
    marginTop = 20,
    marginBottom = 36,
    marginLeft = 60;
  const w = width();
  const { marginRight, shown } = labelMargin(
    pts.map((p) => p.variant),
    w,
  );
  // Both axes' domains set here (every point and the roof inside, with room for the labels), so
  // the label positions can be computed in pixels before Plot draws them.
  const xs = [...pts.map((p) => p.intensity), ...roof.map((r) => r.intensity)];
  const ys = [...pts.map((p) => p.gflops), ...roof.map((r) => r.gflops)];
  const [x0, x1] = [Math.min(...xs) / 1.3, Math.max(...xs) * 1.3];
  const [y0, y1] = [Math.min(...ys) / 1.8, Math.max(...ys) * 1.4];
  const innerH = height - marginTop - marginBottom,
    innerW = w - marginLeft - marginRight;
  const X = logAxis(x0, x1, 0, innerW),
    Y = logAxis(y0, y1, marginTop + innerH, marginTop);
  // Columns: points whose labels would share pixels (within 90 px across, about a label's width).
  const byX = pts.map((_, i) => i).sort((a, b) => pts[a]!.intensity - pts[b]!.intensity);
  const labelPx = new Array<number>(pts.length);
  for (let k = 0; k < byX.length;) {
    let e = k + 1;
    while (e < byX.length && X.to(pts[byX[e]!]!.intensity) - X.to(pts[byX[k]!]!.intensity) < 90)
      e++;
    const col = byX.slice(k, e);
    const placed = spreadLabels(
      col.map((i) => Y.to(pts[i]!.gflops)),
      11,
      marginTop - 4,
      height - marginBottom,
    );
    col.forEach((i, j) => (labelPx[i] = placed[j]!));
    k = e;
  }
  // Each label starts 14 px right of its point, a leader drawn to it where it had to move.
  const labels = pts.map((p, i) => ({
    ...p,
    moved: Math.abs(Y.to(p.gflops) - labelPx[i]!) > 2,
    labelY: Y.from(labelPx[i]!),
    labelX: X.from(X.to(p.intensity) + 14),
  }));
  return Plot.plot({
    width: w,
    height,
    marginTop,
    marginBottom,
    marginLeft,
    marginRight,
    x: { type: "log", label: t("plot.intensity"), grid: true, domain: [x0, x1] },
    y: { type: "log", label: "GFLOP/s", grid: true, domain: [y0, y1] },
    marks: [
      Plot.line(roof, { x: "intensity", y: "gflops", stroke: "var(--ref)", strokeWidth: 2 }),
      // A leader from each point to its label where the label had to move.
      Plot.link(
        labels.filter((l) => l.moved),
        {
          x1: "intensity",
          y1: "gflops",
          x2: "labelX",
          y2: "labelY",
          stroke: "var(--muted)",
          strokeWidth: 0.75,
        },
      ),
      Plot.dot(pts, { x: "intensity", y: "gflops", fill: "var(--accent)", r: 4, tip: true }),
      Plot.text(labels, {
        x: "labelX",
        y: "labelY",
        text: (l: (typeof labels)[number]) => shown(l.variant),
        dx: 2,
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
