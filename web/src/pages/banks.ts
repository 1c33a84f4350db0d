// #/banks : shared-memory banks (seed 001): access + tile row width -> the 32 banks with the
// words each lane reads, conflict degree, passes, broadcast lanes; from the banks model.
import * as Plot from "@observablehq/plot";
import type { App } from "../app";
import { clear, field, figure, h, numberInput, select } from "../dom";
import { num, t } from "../i18n";
import { measureBox } from "../measure";
import { ModelError } from "../models";
import type { RunRecord } from "../records";
import { measuredPlot, measureRequest, runEvidence } from "./evidence";
import { timedRedraw } from "../timing";

export const title = "banks.title";

interface BanksResult {
  indices: number[];
  degree: number;
  passes: number;
  min_passes: number;
  broadcast_lanes: number;
  phases: { first_lane: number; lanes: number; passes: number }[];
  /** Optional (newer models): per bank, the distinct words read and their lanes. */
  banks?: { word: number; lanes: number[] }[][];
}

interface State {
  pattern: string;
  width: number;
  elem_size: number;
  stride: number;
  col: number;
  row: number;
}

export function params(s: State): Record<string, string | number> {
  const p: Record<string, string | number> = { pattern: s.pattern, elem_size: s.elem_size };
  if (s.pattern === "stride") p.stride = s.stride;
  if (s.pattern === "column") Object.assign(p, { width: s.width, col: s.col });
  if (s.pattern === "row") Object.assign(p, { width: s.width, row: s.row });
  return p;
}

/**
 * The picture's layout: for each bank, the distinct words of this access and the lanes that read
 * each. Taken from the model when it lists them; otherwise laid out from the model's per-lane
 * indices (word = index * size / 4, bank = word mod 32: the addressing the figure illustrates).
 */
export function bankColumns(
  r: BanksResult,
  elemSize: number,
): { word: number; lanes: number[] }[][] {
  if (r.banks) return r.banks;
  const cols: { word: number; lanes: number[] }[][] = Array.from({ length: 32 }, () => []);
  r.indices.forEach((index, lane) => {
    const words = Math.max(1, elemSize / 4);
    for (let k = 0; k < words; k++) {
      const w = index * words + k;
      const col = cols[((w % 32) + 32) % 32]!;
      const hit = col.find((c) => c.word === w);
      if (hit) hit.lanes.includes(lane) || hit.lanes.push(lane);
      else col.push({ word: w, lanes: [lane] });
    }
  });
  return cols;
}

function codeOf(s: State): string {
  const type = s.elem_size === 8 ? "double" : s.elem_size === 16 ? "float4" : "float";
  switch (s.pattern) {
    case "column":
      return `__shared__ ${type} tile[32][${s.width}];\n${type} x = tile[threadIdx.x][${s.col}];   // ${t("banks.code.column")}`;
    case "row":
      return `__shared__ ${type} tile[32][${s.width}];\n${type} x = tile[${s.row}][threadIdx.x];   // ${t("banks.code.row")}`;
    case "broadcast":
      return `__shared__ ${type} s[1024];\n${type} x = s[0];   // ${t("banks.code.broadcast")}`;
    default:
      return `__shared__ ${type} s[2048];\n${type} x = s[threadIdx.x * ${s.stride}];`;
  }
}

export function render(root: HTMLElement, app: App): void {
  const s: State = { pattern: "column", width: 32, elem_size: 4, stride: 2, col: 0, row: 0 };
  const controls = h("div", { class: "controls" });
  const presets = h("div", { class: "presets" });
  const codeBox = h("pre", { class: "code", "data-testid": "code" });
  const figs = h("div", { class: "figs", "data-testid": "figures" });
  const grid = h("div", { class: "banks", "data-testid": "banks" });
  const chart = h("div", { class: "chart" });
  const measured = h("div", { class: "chart" });
  const error = h("p", { class: "error", role: "alert" });
  const extra = h("span", { class: "extra" });
  let gcdCurve: Promise<{ stride: number; degree: number }[]> | null = null;
  let gcdSize = 0;

  const patternSel = select(
    ["column", "row", "stride", "broadcast"].map((p) => [p, t(`banks.pattern.${p}`)]),
    s.pattern,
    (v) => ((s.pattern = v), drawControls(), void update()),
    { "data-testid": "pattern" },
  );
  const widthSel = select(
    [
      ["32", "32"],
      ["33", t("banks.width33")],
    ],
    String(s.width),
    (v) => ((s.width = Number(v)), void update()),
    { "data-testid": "width" },
  );
  const sizeSel = select(
    [
      ["4", "4 B (float)"],
      ["8", "8 B (double)"],
      ["16", "16 B (float4)"],
    ],
    "4",
    (v) => ((s.elem_size = Number(v)), void update()),
    { "data-testid": "elem-size" },
  );
  const strideIn = numberInput(s.stride, 1, 64, (v) => ((s.stride = v), void update()), {
    "data-testid": "stride",
  });
  const colIn = numberInput(s.col, 0, 32, (v) => ((s.col = v), void update()));

  function drawControls(): void {
    clear(extra);
    if (s.pattern === "column" || s.pattern === "row")
      extra.append(field(t("banks.width"), widthSel));
    if (s.pattern === "column") extra.append(field(t("banks.col"), colIn));
    if (s.pattern === "stride") extra.append(field(t("banks.stride"), strideIn));
  }
  function preset(label: string, st: Partial<State>, id: string): HTMLButtonElement {
    return h(
      "button",
      {
        type: "button",
        "data-testid": id,
        onclick: () => {
          Object.assign(s, st);
          patternSel.value = s.pattern;
          widthSel.value = String(s.width);
          sizeSel.value = String(s.elem_size);
          strideIn.value = String(s.stride);
          drawControls();
          void update();
        },
      },
      label,
    );
  }
  presets.append(
    preset(
      "tile[32][32] — " + t("banks.pattern.column"),
      { pattern: "column", width: 32, col: 0 },
      "preset-32",
    ),
    preset(
      "tile[32][33] — " + t("banks.pattern.column"),
      { pattern: "column", width: 33, col: 0 },
      "preset-33",
    ),
    preset("s[threadIdx.x * 2]", { pattern: "stride", stride: 2 }, "preset-stride2"),
    preset("s[0]", { pattern: "broadcast" }, "preset-broadcast"),
  );
  controls.append(
    field(t("banks.access"), patternSel),
    field(t("banks.elem_size"), sizeSel),
    extra,
  );

  // The gcd curve: 64 model answers, one after the other so that the figures' own requests never
  // queue behind them (over the API fallback each answer is a child process); one promise per
  // element size.
  async function curveOf(e: number) {
    const out: { stride: number; degree: number }[] = [];
    for (let stride = 1; stride <= 64; stride++) {
      const o = await app.models.run<BanksResult>("banks", {
        pattern: "stride",
        elem_size: e,
        stride,
      });
      out.push({ stride, degree: o.result.degree });
    }
    return out;
  }
  async function gcd(e: number) {
    if (!gcdCurve || gcdSize !== e) {
      gcdSize = e;
      gcdCurve = curveOf(e);
      gcdCurve.catch(() => (gcdCurve = null)); // asked again at the next redraw
    }
    return gcdCurve;
  }

  const update = timedRedraw(async () => {
    let r: BanksResult;
    try {
      const asked = JSON.stringify(params(s));
      r = (await app.models.run<BanksResult>("banks", params(s))).result;
      // A slower answer to an older state (the API fallback) is dropped: the newer redraw draws.
      if (JSON.stringify(params(s)) !== asked) return;
      error.textContent = "";
    } catch (e) {
      error.textContent = e instanceof ModelError ? e.message : String(e);
      return;
    }
    codeBox.textContent = codeOf(s);
    clear(figs);
    figs.append(
      figure("degree", t("banks.fig.degree"), t("banks.way", { n: num(r.degree, 2) })),
      figure("passes", t("banks.fig.passes", { min: r.min_passes }), String(r.passes)),
      figure("broadcast", t("banks.fig.broadcast"), String(r.broadcast_lanes)),
    );
    if (s.pattern === "stride" && s.elem_size === 4)
      figs.append(figure("gcd", t("banks.fig.gcd", { s: s.stride }), num(r.degree, 2)));
    // The picture: one column per bank, one row per distinct word (row 2+ = extra passes).
    const cols = bankColumns(r, s.elem_size);
    const rows = Math.max(1, ...cols.map((c) => c.length));
    clear(grid);
    grid.style.setProperty("--rows", String(Math.min(rows, 32)));
    grid.append(h("div", { class: "bank-head corner" }, t("banks.bank")));
    for (let b = 0; b < 32; b++) grid.append(h("div", { class: "bank-head" }, String(b)));
    for (let row = 0; row < Math.min(rows, 32); row++) {
      grid.append(h("div", { class: "bank-row" }, row === 0 ? "1" : String(row + 1)));
      for (let b = 0; b < 32; b++) {
        const w = cols[b]![row];
        const cls = !w ? "cell" : row > 0 ? "cell word conflict" : "cell word";
        grid.append(
          h(
            "div",
            {
              class: cls,
              title: w ? t("banks.cell_title", { word: w.word, lanes: w.lanes.join(", ") }) : "",
            },
            w ? (w.lanes.length > 1 ? `${w.lanes[0]} ×${w.lanes.length}` : String(w.lanes[0])) : "",
          ),
        );
      }
    }
    // The curve (64 model answers) follows when it is there; the figures above do not wait.
    const size = s.elem_size;
    const stride = s.stride;
    const pattern = s.pattern;
    const degree = r.degree;
    void gcd(size)
      .then((curve) => {
        if (s.elem_size !== size || s.stride !== stride || s.pattern !== pattern) return;
        clear(chart);
        chart.append(
          Plot.plot({
            width: Math.min(640, root.clientWidth || 640),
            height: 220,
            marginLeft: 44,
            x: { label: t("banks.chart.stride"), grid: true },
            y: { label: t("banks.chart.degree"), grid: true, domain: [0, 33] },
            marks: [
              Plot.line(curve, { x: "stride", y: "degree", stroke: "var(--accent)" }),
              Plot.dot(curve, { x: "stride", y: "degree", fill: "var(--accent)", r: 2, tip: true }),
              pattern === "stride"
                ? Plot.dot([{ stride, degree }], {
                    x: "stride",
                    y: "degree",
                    r: 6,
                    stroke: "var(--warn)",
                    strokeWidth: 2,
                  })
                : null,
            ],
          }),
        );
      })
      .catch((e) => (error.textContent = e instanceof ModelError ? e.message : String(e)));
  });

  // The lesson that draws the slowdown against the stride: the run's measurement on the same
  // axes as the model's degree curve above, and "measure on this GPU".
  const query = { x: "stride", y: "slowdown" };
  const fromRun = h("div", {});
  void runEvidence(app, query).then((box) => fromRun.append(box));
  const measure = measureBox(
    app,
    () => measureRequest(app, query, { word: [s.elem_size === 8 ? 8 : 4] }),
    (records: RunRecord[], run) => {
      clear(measured);
      measured.append(h("h3", {}, t("banks.measured")));
      void measuredPlot(app, query, records, run).then((el) => measured.append(el));
    },
  );

  root.append(
    h("h1", {}, t("banks.title")),
    h("p", { class: "lead" }, t("banks.lead")),
    presets,
    controls,
    codeBox,
    h("p", { class: "model-note" }, t("banks.model_note")),
    figs,
    error,
    h("h3", {}, t("banks.grid")),
    grid,
    h("p", { class: "muted" }, t("banks.legend")),
    h("p", { class: "explain" }, t("banks.explain")),
    h("h3", {}, t("banks.chart.title")),
    chart,
    fromRun,
    measure,
    measured,
  );
  drawControls();
  void update();
}
