// The one renderer's data side: declarations shaped as docs/lessons-json.md says (as the core
// writes them) over the real H200 records.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  lessonOf,
  lessonWithPlot,
  parseCatalogue,
  type LessonDecl,
  type PlotDecl,
} from "../src/lessons";
import {
  defaultPoint,
  fieldValue,
  ganttRecords,
  modelValue,
  plotData,
  predictions,
  rooflineData,
  stackData,
  timeLike,
} from "../src/plots/declared";
import { predictedGbps, timed } from "../src/records";
import { realRun } from "./real-run";

const run = realRun();
const of = (e: string) => run.records.filter((r) => r.experiment === e);

const coalescingPlot: PlotDecl = {
  id: "gbps",
  kind: "curve",
  x: { field: "stride", log: true },
  y: { field: "gbps", unit: "GB/s" },
  series: "variant",
  facet: "elem",
  references: ["memcpy", "peak_bandwidth"],
  model: true,
};

describe("declared plots over the real run", () => {
  it("curve: GB/s against stride, one panel per element size, the model from the prediction", () => {
    const pd = plotData(run, {}, coalescingPlot, of("coalescing"));
    expect(pd.facets).toEqual(expect.arrayContaining(["elem=1", "elem=4", "elem=8"]));
    const m = pd.data.filter(
      (d) => d.kind === "measured" && d.facet === "elem=4" && d.variant === "strided_read",
    );
    expect(m.length).toBeGreaterThan(4);
    expect(m.map((d) => d.x)).toEqual([...m.map((d) => d.x as number)].sort((a, b) => a - b));
    // the model of a rate: y × measured / predicted, which is bytes / predicted time
    const rec = timed(of("coalescing")).find((r) => r.prediction && r.gbps)!;
    expect(modelValue(rec, rec.gbps!, "gbps")).toBeCloseTo(predictedGbps(rec)!, 6);
    expect(pd.data.some((d) => d.kind === "model")).toBe(true);
    expect(pd.refs.map((r) => r.axis)).toEqual(["y", "y"]);
    expect(pd.refs[0]!.value).toBeCloseTo(run.ceilings!.memcpy_d2d!.gbps!, 6);
  });

  it("curve of a figure: hierarchy's cycles per load against the working set, L2 size marked", () => {
    const plot: PlotDecl = {
      id: "latency",
      kind: "curve",
      x: { field: "ws", log: true, unit: "bytes" },
      y: { field: "figure:cycles_per_load", unit: "cycles" },
      series: "variant",
      references: ["l2_bytes", "findings"],
    };
    const lesson: LessonDecl = {
      findings: [
        {
          key: "level.L2",
          label: "L2",
          value: 286.4,
          unit: "cycles",
          x_from: 2097152,
          x_to: 33554432,
        },
        { key: "latency.shared", label: "shared", value: 30, unit: "cycles" },
      ],
    };
    const pd = plotData(run, lesson, plot, of("hierarchy"));
    expect(pd.data.length).toBeGreaterThan(10);
    expect(pd.data.every((d) => typeof d.x === "number" && d.y > 0)).toBe(true);
    expect(pd.refs).toEqual([{ label: "L2", value: 62914560, axis: "x" }]);
    // only findings with an x range become bands; same unit: the value is drawn too
    expect(pd.bands).toHaveLength(1);
    expect(pd.bands[0]!.value).toBe(286.4);
    // skipped hierarchy records (28 of them) are not drawn
    expect(pd.data.length).toBe(
      timed(of("hierarchy")).filter((r) => r.figures?.cycles_per_load).length,
    );
  });

  it("slowdown is 1 / speed-up and time-like (its model is y × predicted / measured)", () => {
    const r = timed(of("bank_conflicts")).find(
      (x) => x.speedup_over_baseline && x.params.stride === "32",
    )!;
    expect(fieldValue(r, "slowdown")).toBeCloseTo(1 / r.speedup_over_baseline!, 9);
    expect(timeLike("slowdown")).toBe(true);
    expect(timeLike("median_ms")).toBe(true);
    expect(timeLike("figure:cycles_per_step", "cycles")).toBe(true);
    expect(timeLike("gbps", "GB/s")).toBe(false);
    expect(timeLike("gflops", "TFLOP/s")).toBe(false);
  });

  it("bars at one point: matmul in TFLOP/s, cuBLAS drawn as the vendor's reference", () => {
    const plot: PlotDecl = {
      id: "tflops",
      kind: "bars",
      x: { field: "variant" },
      y: { field: "gflops", unit: "TFLOP/s" },
      references: ["vendor", "peak_fp32"],
    };
    const pd = plotData(run, { vendor: ["cublas"] }, plot, of("matmul"));
    const point = defaultPoint(pd.data, pd.points);
    const cublas = pd.data.find((d) => d.variant === "cublas" && d.point === point)!;
    expect(cublas.role).toBe("vendor");
    expect(cublas.y).toBeGreaterThan(30); // TFLOP/s, not GFLOP/s
    expect(pd.refs[0]!.value).toBeCloseTo(66.90816, 4);
  });

  it("where and variants select the records", () => {
    const plot: PlotDecl = {
      id: "x",
      kind: "curve",
      x: { field: "stride" },
      y: { field: "slowdown" },
      where: { word: "4" },
      variants: ["strided"],
    };
    const pd = plotData(run, {}, plot, of("bank_conflicts"));
    expect(pd.data.length).toBeGreaterThan(3);
    expect(new Set(pd.data.map((d) => d.variant))).toEqual(new Set(["strided"]));
  });

  it("stacked, roofline and gantt draw from their own fields", () => {
    const st = stackData(
      {
        id: "s",
        kind: "stacked",
        x: { field: "reads" },
        y: { field: "median_ms", unit: "ms" },
        stack: ["figure:gpu_part_ms"],
      },
      of("unified_memory"),
    );
    expect(st.length).toBeGreaterThan(0);
    expect(new Set(st.map((s) => s.part))).toEqual(new Set(["gpu_part_ms", "rest"]));
    // the parts add up to the measured time
    const r = timed(of("unified_memory"))[0]!;
    const mine = st.filter((s) => s.series === r.variant && s.x === r.params.reads);
    expect(mine.reduce((n, s) => n + s.value, 0)).toBeCloseTo(r.stats!.median_ms, 9);
    const roof = rooflineData({ id: "r", kind: "roofline" }, of("matmul"));
    expect(roof.every((p) => p.intensity > 0 && p.gflops > 0)).toBe(true);
    expect(ganttRecords({ id: "g", kind: "gantt" }, of("streams")).length).toBeGreaterThan(10);
  });

  it("predictions: predicted against measured per record", () => {
    const p = predictions(of("bandwidth"));
    expect(p.length).toBeGreaterThan(0);
    for (const x of p) expect(x.ratio).toBeCloseTo(x.measured_ms / x.predicted_ms, 3);
  });
});

describe("the catalogue", () => {
  const list = {
    experiments: [
      { name: "a", summary: "A", plots: [{ id: "p", kind: "gantt" }] },
      {
        name: "b",
        summary: "B",
        plots: [{ id: "q", kind: "curve", x: { field: "stride" }, y: { field: "gbps" } }],
      },
    ],
  };
  it("reads /api/list and the report's map alike", () => {
    const c = parseCatalogue(list);
    expect(Object.keys(c)).toEqual(["a", "b"]);
    expect(parseCatalogue({ a: { summary: "A" } }).a!.summary).toBe("A");
    expect(parseCatalogue(null)).toEqual({});
  });
  it("the run's block wins; findings and headline only from the run", () => {
    const c = parseCatalogue(list);
    const fromCat = lessonOf(undefined, c, "a");
    expect(fromCat.plots![0]!.kind).toBe("gantt");
    expect(fromCat.findings).toBeUndefined();
    const fromRun = lessonOf({ a: { findings: [{ key: "k", label: "K", value: 1 }] } }, c, "a");
    expect(fromRun.plots![0]!.kind).toBe("gantt");
    expect(fromRun.findings![0]!.key).toBe("k");
  });
  it("an explainer finds its lesson by what it draws, not by name", () => {
    const c = parseCatalogue(list);
    expect(lessonWithPlot(c, { kind: "gantt" })!.name).toBe("a");
    expect(lessonWithPlot(c, { x: "stride", y: "gbps" })!.name).toBe("b");
    expect(lessonWithPlot(c, { x: "stride", y: "slowdown" })).toBeNull();
  });
});

/** Every lesson's name: the folders of src/experiments and the names they register. */
function lessonNames(): string[] {
  const dir = join(__dirname, "../../src/experiments");
  const names = new Set<string>();
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory() || d.name === "common") continue;
    names.add(d.name);
    for (const f of readdirSync(join(dir, d.name)))
      if (f.endsWith(".cpp"))
        for (const m of readFileSync(join(dir, d.name, f), "utf8").matchAll(
          /ExperimentBuilder<[^>]*>\s+\w+\(\s*"([a-z0-9_]+)"/g,
        ))
          names.add(m[1]!);
  }
  for (const r of run.records) names.add(r.experiment);
  return [...names].sort();
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sources(join(dir, d.name))
      : d.name.endsWith(".ts")
        ? [join(dir, d.name)]
        : [],
  );
}

describe("no lesson is named in the front end", () => {
  it("web/src has no lesson name as a string (plots come from the declarations)", () => {
    const names = lessonNames();
    expect(names.length).toBeGreaterThan(25);
    const hits: string[] = [];
    for (const f of sources(join(__dirname, "../src"))) {
      const lines = readFileSync(f, "utf8").split("\n");
      lines.forEach((line, i) => {
        // The seed-001 explainers' route ids (#/coalescing, claims' "page") are page names that
        // three lessons share; they are declared once, in claims.ts EXPLAINERS.
        if (/^export const EXPLAINERS = /.test(line)) return;
        // The models (docs/models.md) are a catalogue of their own; a few share a lesson's name.
        const code = line.replace(/models\.run<[^>]*>\(\s*"[a-z0-9_]+"/g, "");
        for (const n of names)
          if (new RegExp(`["'\`]${n}["'\`]`).test(code))
            hits.push(`${f.replace(/.*\/web\/src\//, "src/")}:${i + 1}: ${n}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
