// #/lesson/<name> : the lesson's doc (docs/<name>.md), its kernels with their comments, its plots
// from the latest run that has it.  #/lesson (no name): the list of lessons.
import type { App } from "../app";
import { apiGet } from "../api";
import { h } from "../dom";
import { t } from "../i18n";
import { renderMarkdown } from "../markdown";
import { lessonPlots } from "../plots/lessons";
import { experiments, type RunJson } from "../records";

export const title = "lesson.title";

interface LessonJson {
  doc?: string;
  sources?: { file: string; text: string }[];
}

async function latestRunWith(app: App, name: string): Promise<RunJson | null> {
  const runs = await app.listRuns().catch(() => []);
  for (const entry of [...runs].reverse()) {
    const run = await app.getRun(entry.id).catch(() => null);
    if (run && Array.isArray(run.records) && experiments(run).includes(name)) return run;
  }
  return null;
}

export async function render(root: HTMLElement, app: App, name: string): Promise<void> {
  if (!name) {
    let names: string[] = [];
    if (app.mode === "serve") {
      const l = await apiGet<{ lessons: string[] } | string[]>("api/lessons").catch(() => []);
      names = Array.isArray(l) ? l : l.lessons;
    } else {
      for (const r of app.report.runs)
        for (const e of experiments(r.run)) if (!names.includes(e)) names.push(e);
    }
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
  if (app.mode === "serve") {
    try {
      const l = await apiGet<LessonJson>(`api/lessons/${encodeURIComponent(name)}`);
      if (l.doc) {
        const doc = h("article", { class: "doc" });
        doc.innerHTML = renderMarkdown(l.doc);
        root.append(doc);
      }
      if (l.sources?.length) {
        root.append(
          h("h2", {}, t("lesson.kernels")),
          ...l.sources.map((s) =>
            h(
              "details",
              { class: "source" },
              h("summary", {}, s.file),
              h("pre", { class: "code" }, s.text),
            ),
          ),
        );
      }
    } catch (e) {
      root.append(h("p", { class: "muted" }, t("lesson.no_doc", { message: String(e) })));
    }
  }
  const run = await latestRunWith(app, name);
  root.append(h("h2", {}, t("lesson.plots")));
  if (!run) {
    root.append(h("p", { class: "muted" }, t("lesson.no_run")));
    return;
  }
  root.append(
    h(
      "p",
      { class: "muted" },
      t("lesson.from_run", {
        date: run.context?.date ?? "?",
        device: String(run.context?.device?.name ?? "?"),
      }),
    ),
  );
  root.append(await lessonPlots(app, run, name));
}
