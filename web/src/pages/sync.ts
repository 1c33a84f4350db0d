// #/sync : __syncthreads() as a picture (seed 001): warps of a block arrive at the barrier at
// different times; the fast ones wait for the last. An illustration, not a model: the arrival
// times are made up (press "again" for others), only the rule "everyone waits for the last" holds.
import * as Plot from "@observablehq/plot";
import type { App } from "../app";
import { clear, field, h, select } from "../dom";
import { t } from "../i18n";
import { timedRedraw } from "../timing";

export const title = "sync.title";

interface Bar {
  warp: string;
  phase: "write" | "wait" | "read" | "hang";
  start: number;
  end: number;
}

function arrivals(warps: number, seed: number): number[] {
  let x = (seed * 2654435761) >>> 0 || 1;
  return Array.from({ length: warps }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return 4 + (x % 7);
  });
}

export function render(root: HTMLElement, _app: App): void {
  const s = { warps: 4, seed: 1, divergent: false };
  const chart = h("div", { class: "chart", "data-testid": "sync-chart" });
  const verdict = h("p", { class: "verdict", "data-testid": "sync-verdict" });

  const update = timedRedraw(async () => {
    const arrive = arrivals(s.warps, s.seed);
    const release = Math.max(...arrive);
    const bars: Bar[] = [];
    arrive.forEach((a, w) => {
      const warp = t("sync.warp", { w });
      bars.push({ warp, phase: "write", start: 0, end: a });
      const skips = s.divergent && w >= s.warps / 2;
      if (s.divergent) {
        // Warps that skip the barrier run on; the others wait forever (or undefined behaviour).
        if (skips) bars.push({ warp, phase: "read", start: a, end: a + 5 });
        else bars.push({ warp, phase: "hang", start: a, end: release + 8 });
      } else {
        if (a < release) bars.push({ warp, phase: "wait", start: a, end: release });
        bars.push({ warp, phase: "read", start: release, end: release + 5 });
      }
    });
    clear(chart);
    chart.append(
      Plot.plot({
        width: Math.min(680, root.clientWidth || 680),
        height: 50 + 34 * s.warps,
        marginLeft: 70,
        x: { label: t("sync.time"), grid: true },
        y: { label: null },
        color: {
          legend: true,
          domain: ["write", "wait", "read", "hang"],
          range: ["#4e79a7", "#d3d3d3", "#59a14f", "#e15759"],
          tickFormat: (p: string) => t(`sync.phase.${p}`),
        },
        marks: [
          Plot.barX(bars, { y: "warp", x1: "start", x2: "end", fill: "phase", inset: 3 }),
          s.divergent ? null : Plot.ruleX([release], { stroke: "#c00", strokeWidth: 3 }),
          s.divergent
            ? null
            : Plot.text([release], {
                x: (d: number) => d,
                frameAnchor: "top",
                text: () => "__syncthreads()",
                dy: -2,
                fill: "#c00",
              }),
        ],
      }),
    );
    verdict.textContent = s.divergent
      ? t("sync.verdict.divergent")
      : t("sync.verdict.ok", {
          last: arrive.indexOf(release),
          wait: arrive.reduce((acc, a) => acc + (release - a), 0),
        });
    verdict.className = s.divergent ? "verdict bad" : "verdict";
  });

  root.append(
    h("h1", {}, t("sync.title")),
    h("p", { class: "lead" }, t("sync.lead")),
    h(
      "div",
      { class: "controls" },
      field(
        t("sync.warps"),
        select(
          [
            ["4", "4"],
            ["8", "8"],
            ["16", "16"],
          ],
          "4",
          (v) => ((s.warps = Number(v)), void update()),
        ),
      ),
      field(
        t("sync.where"),
        select(
          [
            ["all", t("sync.where.all")],
            ["if", t("sync.where.if")],
          ],
          "all",
          (v) => ((s.divergent = v === "if"), void update()),
          { "data-testid": "sync-where" },
        ),
      ),
      h("button", { type: "button", onclick: () => (s.seed++, void update()) }, t("sync.again")),
    ),
    h(
      "pre",
      { class: "code" },
      "sdata[tid] = in[i];            // " +
        t("sync.phase.write") +
        "\n" +
        "__syncthreads();               // " +
        t("sync.code.barrier") +
        "\n" +
        "out[i] = sdata[tid ^ 1];       // " +
        t("sync.phase.read"),
    ),
    chart,
    verdict,
    h("p", { class: "explain" }, t("sync.explain")),
    h("p", { class: "explain" }, t("sync.explain2")),
  );
  void update();
}
