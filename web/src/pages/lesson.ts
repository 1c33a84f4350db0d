// #/lesson/<name> : the lesson's plots from the latest run that has it, then prediction against
// measurement and what its records say (skips, expected failures), then the lesson's doc and
// kernels (the server's catalogue, or the report's own copy).  #/lesson: the list of lessons.
import type { App } from "../app";
import { h } from "../dom";
import { t } from "../i18n";
import { renderMarkdown } from "../markdown";
import { predictions } from "../plots/declared";
import { lessonPlots } from "../plots/render";
import type { LessonDecl } from "../lessons";
import { experiments, type RunJson } from "../records";
import { statusList } from "./results";

export const title = "lesson.title";

async function latestRunWith(app: App, name: string): Promise<RunJson | null> {
  const runs = await app.listRuns().catch(() => []);
  for (const entry of [...runs].reverse()) {
    const run = await app.getRun(entry.id).catch(() => null);
    if (run && Array.isArray(run.records) && experiments(run).includes(name)) return run;
  }
  return null;
}

function predictionTable(run: RunJson, name: string): HTMLElement {
  const rows = predictions(run.records.filter((r) => r.experiment === name));
  if (!rows.length) return h("p", { class: "muted" }, t("lesson.no_prediction"));
  const within = rows.filter((r) => r.ratio >= 1 / 1.15 && r.ratio <= 1.15).length;
  return h(
    "div",
    {},
    h("p", {}, t("lesson.prediction_summary", { within, of: rows.length })),
    h(
      "details",
      { class: "source" },
      h("summary", {}, t("lesson.prediction_table", { n: rows.length })),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "predictions", "data-testid": "predictions" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["lesson.col.variant", "lesson.col.point", "lesson.col.model"].map((k) =>
                h("th", {}, t(k)),
              ),
              h("th", { class: "num" }, t("lesson.col.predicted")),
              h("th", { class: "num" }, t("lesson.col.measured")),
              h("th", { class: "num" }, t("lesson.col.ratio")),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((r) =>
              h(
                "tr",
                { class: r.ratio > 1.15 || r.ratio < 1 / 1.15 ? "off" : null },
                h("td", {}, r.variant),
                h("td", {}, r.point),
                h("td", {}, r.model),
                h("td", { class: "num" }, r.predicted_ms.toPrecision(3)),
                h("td", { class: "num" }, r.measured_ms.toPrecision(3)),
                h("td", { class: "num" }, `${r.ratio.toFixed(2)}×`),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

export async function render(root: HTMLElement, app: App, name: string): Promise<void> {
  if (!name) {
    const names = Object.keys(await app.catalogue());
    for (const r of app.report.runs)
      for (const e of experiments(r.run)) if (!names.includes(e)) names.push(e);
    root.append(
      h("h1", {}, t("lesson.list")),
      h(
        "ul",
        { class: "cards" },
        names.map((n) => h("li", {}, h("a", { href: `#/lesson/${n}` }, n))),
      ),
    );
    return;
  }
  root.append(h("h1", {}, t("lesson.heading", { name })));
  const [run, content] = await Promise.all([
    latestRunWith(app, name),
    app.lessonContent(name).catch((e: unknown): LessonDecl => {
      root.append(h("p", { class: "muted" }, t("lesson.no_doc", { message: String(e) })));
      return {};
    }),
  ]);
  const lesson = run ? await app.lesson(run, name) : (await app.catalogue())[name];
  if (lesson?.summary) root.append(h("p", { class: "lead" }, lesson.summary));
  if (!run) {
    root.append(h("p", { class: "muted" }, t("lesson.no_run")));
  } else {
    root.append(
      h(
        "p",
        { class: "muted" },
        t("lesson.from_run", {
          date: run.context?.date ?? "?",
          device: String(run.context?.device?.name ?? "?"),
        }),
      ),
      await lessonPlots(app, run, name, lesson ?? {}),
      h("h2", {}, t("lesson.prediction")),
      predictionTable(run, name),
      statusList(run, name),
    );
  }
  if (content.doc) {
    const doc = h("article", { class: "doc", "data-testid": "lesson-doc" });
    doc.innerHTML = renderMarkdown(content.doc);
    root.append(h("h2", {}, t("lesson.doc")), doc);
  }
  if (content.sources?.length) {
    root.append(
      h("h2", {}, t("lesson.kernels")),
      ...content.sources.map((s) =>
        h(
          "details",
          { class: "source", "data-testid": "lesson-source" },
          h("summary", {}, s.file),
          h("pre", { class: "code" }, s.text),
        ),
      ),
    );
  }
}
