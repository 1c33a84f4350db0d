// The variant ladder with a point picker (the exercise page: the learner's variant among the
// lesson's); no lesson named (plots/render.ts draws the lessons).
import { clear, h, select } from "../dom";
import { t } from "../i18n";
import {
  isVendor,
  ladder,
  pointLabel,
  points,
  timed,
  type RunJson,
  type RunRecord,
} from "../records";
import { ladderChart, type Reference } from "./charts";

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
