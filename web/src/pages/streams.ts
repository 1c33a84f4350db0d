// #/streams : chunks, streams, copy engines and issue order -> a Gantt chart of the H2D engine,
// the SMs and the D2H engine (seed 001: serial 100, streams 55, 1.82x; one copy engine with
// depth-first issue: 1.00x). Every number is the timeline model's.
import type { App } from "../app";
import { clear, field, figure, h, numberInput, select } from "../dom";
import { fixed, num, t } from "../i18n";
import { measureBox } from "../measure";
import { ModelError } from "../models";
import { ganttChart } from "../plots/charts";
import type { GanttBar, RunRecord } from "../records";
import { measuredPlot, measureRequest, runEvidence } from "./evidence";
import { timedRedraw } from "../timing";

export const title = "streams.title";

export interface TimelineOp {
  segment: number;
  stream: number;
  stage: string;
  engine: string;
  start: number;
  end: number;
}

interface TimelineResult {
  makespan: number;
  serial: number;
  speedup: number;
  lower_bound: number;
  operations: TimelineOp[];
}

/** The model's operations as Gantt bars (lanes: copy engine(s) and the SMs). */
export function modelGantt(ops: TimelineOp[]): GanttBar[] {
  return ops.map((o) => ({
    lane: o.engine === "compute" ? "SM" : o.engine === "copy" ? "copy" : o.engine,
    start: o.start,
    end: o.end,
    segment: o.segment,
    stream: o.stream,
    label: `${o.stage === "kernel" ? "K" : o.stage}${o.segment}`,
  }));
}

export function render(root: HTMLElement, app: App): void {
  const s = {
    segments: 4,
    streams: 4,
    copy_engines: 2,
    order: "depth",
    queues: "inorder",
    h2d: 10,
    kernel: 10,
    d2h: 5,
  };
  const figs = h("div", { class: "figs", "data-testid": "figures" });
  const chart = h("div", { class: "chart", "data-testid": "gantt" });
  const measured = h("div", { class: "chart" });
  // The lesson whose records draw a Gantt chart: its measured pipeline beside this model's.
  const query = { kind: "gantt" as const, model: true };
  const fromRun = h("div", {});
  void runEvidence(app, query).then((box) => fromRun.append(box));
  const error = h("p", { class: "error", role: "alert" });
  const set =
    <K extends keyof typeof s>(k: K) =>
    (v: (typeof s)[K]) => {
      s[k] = v;
      void update();
    };

  const update = timedRedraw(async () => {
    let r: TimelineResult;
    try {
      const asked = JSON.stringify(s);
      r = (await app.models.run<TimelineResult>("timeline", { ...s })).result;
      // A slower answer to an older state (the API fallback) is dropped: the newer redraw draws.
      if (JSON.stringify(s) !== asked) return;
      error.textContent = "";
    } catch (e) {
      error.textContent = e instanceof ModelError ? e.message : String(e);
      return;
    }
    clear(figs);
    figs.append(
      figure("serial", t("streams.fig.serial"), num(r.serial, 2)),
      figure("makespan", t("streams.fig.makespan"), num(r.makespan, 2)),
      figure("speedup", t("streams.fig.speedup"), `${fixed(r.speedup, 2)}×`),
      figure("bound", t("streams.fig.bound"), num(r.lower_bound, 2)),
    );
    clear(chart);
    chart.append(
      ganttChart(modelGantt(r.operations), {
        x: t("streams.time_units"),
        lanes: s.copy_engines === 1 ? ["copy", "SM"] : ["H2D", "SM", "D2H"],
      }),
    );
  });

  const num01 = (k: "h2d" | "kernel" | "d2h") =>
    numberInput(s[k], 0, 1000, set(k), { "data-testid": `dur-${k}` });
  root.append(
    h("h1", {}, t("streams.title")),
    h("p", { class: "lead" }, t("streams.lead")),
    h(
      "div",
      { class: "controls" },
      field(
        t("streams.segments"),
        numberInput(s.segments, 1, 32, set("segments"), { "data-testid": "segments" }),
      ),
      field(
        t("streams.streams"),
        numberInput(
          s.streams,
          1,
          16,
          (v) => {
            s.streams = v;
            void update();
          },
          { "data-testid": "stream-count" },
        ),
      ),
      field(
        t("streams.copy_engines"),
        select(
          [
            ["1", "1"],
            ["2", t("streams.two_engines")],
          ],
          "2",
          (v) => set("copy_engines")(Number(v)),
          {
            "data-testid": "copy-engines",
          },
        ),
      ),
      field(
        t("streams.order"),
        select(
          ["depth", "breadth", "rounds"].map((o) => [o, t(`streams.order.${o}`)]),
          "depth",
          set("order"),
          { "data-testid": "order" },
        ),
      ),
      field(
        t("streams.queues"),
        select(
          [
            ["inorder", t("streams.queues.inorder")],
            ["perstream", t("streams.queues.perstream")],
          ],
          "inorder",
          set("queues"),
          {
            "data-testid": "queues",
          },
        ),
      ),
    ),
    h(
      "div",
      { class: "controls" },
      field(t("streams.h2d"), num01("h2d")),
      field(t("streams.kernel"), num01("kernel")),
      field(t("streams.d2h"), num01("d2h")),
    ),
    h("p", { class: "model-note" }, t("streams.model_note")),
    figs,
    error,
    chart,
    h("p", { class: "explain" }, t("streams.explain")),
    h(
      "pre",
      { class: "code" },
      `cudaMallocHost(&h_buf, bytes);     // ${t("streams.code.pinned")}
cudaStream_t s[NSTREAMS];
for (int k = 0; k < NSTREAMS; ++k) cudaStreamCreate(&s[k]);
for (int c = 0; c < CHUNKS; ++c) {
    cudaStream_t st = s[c % NSTREAMS];
    size_t off = c * chunkElems;
    cudaMemcpyAsync(d_buf + off, h_buf + off, chunkBytes, cudaMemcpyHostToDevice, st);
    process<<<grid, block, 0, st>>>(d_buf + off, chunkElems);
    cudaMemcpyAsync(h_buf + off, d_buf + off, chunkBytes, cudaMemcpyDeviceToHost, st);
}
cudaDeviceSynchronize();           // ${t("streams.code.wait")}`,
    ),
    h(
      "div",
      { class: "callout" },
      h("strong", {}, "⚠️ " + t("streams.default_stream")),
      " ",
      t("streams.default_stream.text"),
    ),
    fromRun,
    measureBox(
      app,
      () =>
        measureRequest(app, query, {
          segments: [Math.max(2, s.segments)],
          streams: [s.streams],
        }),
      (records: RunRecord[], run) => {
        clear(measured);
        void measuredPlot(app, query, records, run).then((el) => measured.append(el));
      },
    ),
    measured,
  );
  void update();
}
