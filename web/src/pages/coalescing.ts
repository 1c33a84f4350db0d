// #/coalescing : one warp's load -> 32-byte sectors and 128-byte lines (seed 001), from the
// coalescing model; efficiency against stride; "measure on this GPU" runs the coalescing lesson.
import * as Plot from "@observablehq/plot";
import type { App } from "../app";
import { clear, field, figure, h, numberInput, select } from "../dom";
import { pct, t } from "../i18n";
import { measureBox } from "../measure";
import { ModelError, type ModelOutput } from "../models";
import type { RunRecord } from "../records";
import { measuredPlot, measureRequest, runEvidence } from "./evidence";
import { timedRedraw } from "../timing";

export const title = "coalescing.title";

interface CoalescingResult {
  addresses: number[];
  sectors: number;
  lines: number;
  sector_ids: number[];
  line_ids: number[];
  bytes_moved: number;
  bytes_needed: number;
  efficiency: number;
  array_pass_efficiency: number;
}

interface State {
  pattern: string;
  elem_size: number;
  stride: number;
  offset: number;
  fields: number;
  field: number;
  width: number;
}

const PATTERNS = ["linear", "strided", "offset", "aos", "column", "random"];

export function params(s: State): Record<string, string | number> {
  const p: Record<string, string | number> = { pattern: s.pattern, elem_size: s.elem_size };
  if (s.pattern === "strided") p.stride = s.stride;
  if (s.pattern === "offset") p.offset = s.offset;
  if (s.pattern === "aos") Object.assign(p, { fields: s.fields, field: s.field });
  if (s.pattern === "column") p.width = s.width;
  return p;
}

function code(s: State): string {
  const type = { 1: "char", 2: "short", 4: "float", 8: "double", 16: "float4" }[s.elem_size] ?? "T";
  const head = `int i = blockIdx.x * blockDim.x + threadIdx.x;   // ${type} *a\n`;
  switch (s.pattern) {
    case "strided":
      return `${head}x = a[i * ${s.stride}];`;
    case "offset":
      return `${head}x = a[i + ${s.offset}];`;
    case "aos":
      return `${head}x = a[i * ${s.fields} + ${s.field}];   // s[i].field${s.field} of ${s.fields}`;
    case "column":
      return `${head}x = a[i * ${s.width} + 0];   // column 0 of a ${s.width}-wide array`;
    case "random":
      return `${head}x = a[hash(i) % range];`;
    default:
      return `${head}x = a[i];`;
  }
}

export function render(root: HTMLElement, app: App): void {
  const s: State = {
    pattern: "linear",
    elem_size: 4,
    stride: 2,
    offset: 1,
    fields: 4,
    field: 0,
    width: 1024,
  };
  const controls = h("div", { class: "controls" });
  const codeBox = h("pre", { class: "code", "data-testid": "code" });
  const figs = h("div", { class: "figs", "data-testid": "figures" });
  const lanes = h("div", { class: "lanes", "data-testid": "lanes" });
  const lines = h("div", { class: "lines", "data-testid": "lines" });
  const chart = h("div", { class: "chart" });
  const measured = h("div", { class: "chart" });
  const error = h("p", { class: "error", role: "alert" });
  const curveCache = new Map<number, { stride: number; eff: number; warp: number }[]>();

  const strideIn = numberInput(s.stride, 1, 64, (v) => ((s.stride = v), void update()), {
    "data-testid": "stride",
  });
  const offsetIn = numberInput(s.offset, 0, 64, (v) => ((s.offset = v), void update()), {
    "data-testid": "offset",
  });
  const fieldsIn = numberInput(s.fields, 1, 32, (v) => ((s.fields = v), void update()));
  const fieldIn = numberInput(s.field, 0, 31, (v) => ((s.field = v), void update()));
  const widthIn = numberInput(s.width, 1, 1 << 20, (v) => ((s.width = v), void update()));
  const extra = h("span", { class: "extra" });

  function drawControls(): void {
    clear(extra);
    if (s.pattern === "strided") extra.append(field(t("coalescing.stride"), strideIn));
    if (s.pattern === "offset") extra.append(field(t("coalescing.offset"), offsetIn));
    if (s.pattern === "aos")
      extra.append(field(t("coalescing.fields"), fieldsIn), field(t("coalescing.field"), fieldIn));
    if (s.pattern === "column") extra.append(field(t("coalescing.width"), widthIn));
  }

  controls.append(
    field(
      t("coalescing.pattern"),
      select(
        PATTERNS.map((p) => [p, t(`coalescing.pattern.${p}`)]),
        s.pattern,
        (v) => {
          s.pattern = v;
          drawControls();
          void update();
        },
        { "data-testid": "pattern" },
      ),
    ),
    field(
      t("coalescing.elem_size"),
      select(
        [1, 2, 4, 8, 16].map((e) => [String(e), `${e} B`]),
        String(s.elem_size),
        (v) => ((s.elem_size = Number(v)), void update()),
        { "data-testid": "elem-size" },
      ),
    ),
    extra,
  );

  async function strideCurve(e: number) {
    let c = curveCache.get(e);
    if (!c) {
      c = [];
      for (const stride of [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]) {
        const o = await app.models.run<CoalescingResult>("coalescing", {
          pattern: "strided",
          elem_size: e,
          stride,
        });
        c.push({
          stride,
          eff: 100 * o.result.array_pass_efficiency,
          warp: 100 * o.result.efficiency,
        });
      }
      curveCache.set(e, c);
    }
    return c;
  }

  const update = timedRedraw(async () => {
    let out: ModelOutput<CoalescingResult>;
    try {
      const asked = JSON.stringify(params(s));
      out = await app.models.run<CoalescingResult>("coalescing", params(s));
      // A slower answer to an older state (the API fallback) is dropped: the newer redraw draws.
      if (JSON.stringify(params(s)) !== asked) return;
      error.textContent = "";
    } catch (e) {
      error.textContent = e instanceof ModelError ? e.message : String(e);
      return;
    }
    const r = out.result;
    codeBox.textContent = code(s);
    clear(figs);
    figs.append(
      figure("sectors", t("coalescing.fig.sectors"), String(r.sectors)),
      figure("lines", t("coalescing.fig.lines"), String(r.lines)),
      figure("bytes", t("coalescing.fig.bytes"), `${r.bytes_moved} / ${r.bytes_needed} B`),
      figure("efficiency", t("coalescing.fig.efficiency"), pct(r.efficiency)),
      figure("pass", t("coalescing.fig.pass"), pct(r.array_pass_efficiency)),
    );
    // Lanes: colour = the sector a lane's address falls in (the model's sector list).
    const sectorIndex = new Map(r.sector_ids.map((sid, i) => [sid, i]));
    clear(lanes);
    r.addresses.forEach((a, lane) => {
      const sid = Math.floor(a / 32);
      lanes.append(
        h(
          "div",
          { class: `lane c${(sectorIndex.get(sid) ?? 0) % 8}`, title: `lane ${lane}: byte ${a}` },
          h("span", { class: "lane-id" }, String(lane)),
          h("span", { class: "lane-addr" }, String(a)),
        ),
      );
    });
    clear(lines);
    const shown = r.line_ids.slice(0, 16);
    for (const line of shown) {
      const cells = [0, 1, 2, 3].map((k) => {
        const sid = line * 4 + k;
        const used = sectorIndex.has(sid);
        return h(
          "div",
          { class: `sector ${used ? `used c${(sectorIndex.get(sid) ?? 0) % 8}` : ""}` },
          used ? "✓" : "",
        );
      });
      lines.append(
        h(
          "div",
          { class: "line" },
          h("span", { class: "line-label" }, t("coalescing.byte", { b: line * 128 })),
          cells,
        ),
      );
    }
    if (r.line_ids.length > shown.length)
      lines.append(
        h(
          "p",
          { class: "muted" },
          t("coalescing.more_lines", { n: r.line_ids.length - shown.length }),
        ),
      );

    const curve = await strideCurve(s.elem_size);
    clear(chart);
    chart.append(
      Plot.plot({
        width: Math.min(640, root.clientWidth || 640),
        height: 220,
        marginLeft: 50,
        x: {
          type: "log",
          base: 2,
          label: t("coalescing.chart.stride"),
          ticks: [1, 2, 4, 8, 16, 32],
        },
        y: { domain: [0, 100], label: t("coalescing.chart.eff"), grid: true },
        marks: [
          Plot.line(curve, { x: "stride", y: "eff", stroke: "var(--accent)", marker: "dot" }),
          Plot.line(curve, {
            x: "stride",
            y: "warp",
            stroke: "var(--muted)",
            strokeDasharray: "4 3",
          }),
          s.pattern === "strided"
            ? Plot.dot([{ x: s.stride, y: 100 * r.array_pass_efficiency }], {
                x: "x",
                y: "y",
                r: 6,
                stroke: "var(--warn)",
                strokeWidth: 2,
              })
            : null,
          Plot.text(curve.slice(-1), {
            x: "stride",
            y: "eff",
            text: () => t("coalescing.chart.pass"),
            dy: -10,
            textAnchor: "end",
          }),
        ],
      }),
    );
  });

  // The lesson that draws GB/s against the stride: its stored run beside the sector efficiency,
  // and "measure on this GPU" at the chosen element size.
  const query = { x: "stride", y: "gbps" };
  const fromRun = h("div", {});
  void runEvidence(app, query).then((box) => fromRun.append(box));
  const measure = measureBox(
    app,
    () => measureRequest(app, query, { elem: [s.elem_size], stride: [1, 2, 4, 8, 16, 32] }),
    (records: RunRecord[], run) => {
      clear(measured);
      measured.append(h("h3", {}, t("coalescing.measured")));
      void measuredPlot(app, query, records, run).then((el) => measured.append(el));
    },
  );

  root.append(
    h("h1", {}, t("coalescing.title")),
    h("p", { class: "lead" }, t("coalescing.lead")),
    controls,
    codeBox,
    h("p", { class: "model-note" }, t("coalescing.model_note")),
    figs,
    error,
    h("h3", {}, t("coalescing.lanes")),
    lanes,
    h("h3", {}, t("coalescing.lines")),
    lines,
    h("h3", {}, t("coalescing.chart.title", { e: s.elem_size })),
    chart,
    h("p", { class: "explain" }, t("coalescing.explain")),
    fromRun,
    measure,
    measured,
  );
  drawControls();
  void update();
}
