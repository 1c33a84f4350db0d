// The run's measurement beside an explainer's model (seed 001's pages). An explainer asks for a
// plot by what it draws ({x: "stride", y: "gbps"}, {kind: "gantt"}); the lesson that declares one
// (the catalogue, or a run's own lessons block) supplies the records. No lesson is named here.
import type { App } from "../app";
import { h } from "../dom";
import { t } from "../i18n";
import {
  lessonOf,
  lessonWithPlot,
  type LessonDecl,
  type PlotDecl,
  type PlotQuery,
} from "../lessons";
import { renderPlot } from "../plots/render";
import { experiments, type RunJson, type RunRecord } from "../records";

export interface Evidence {
  name: string;
  plot: PlotDecl;
  lesson: LessonDecl;
}

/** The lesson and plot an explainer's query names, or null when no lesson declares one. */
export async function findLesson(
  app: App,
  q: PlotQuery,
  run?: RunJson | null,
): Promise<Evidence | null> {
  const catalogue = await app.catalogue();
  const hit = lessonWithPlot({ ...catalogue, ...(run?.lessons ?? {}) }, q);
  if (!hit) return null;
  return { name: hit.name, plot: hit.plot, lesson: lessonOf(run?.lessons, catalogue, hit.name) };
}

/** The newest run (server's results or the report's runs) that has records of `name`. */
export async function newestRunWith(app: App, name?: string): Promise<RunJson | null> {
  const runs = await app.listRuns().catch(() => []);
  for (const entry of [...runs].reverse()) {
    const run = await app.getRun(entry.id).catch(() => null);
    if (run && Array.isArray(run.records) && (!name || experiments(run).includes(name))) return run;
  }
  return null;
}

/** The declared plot drawn from records (a stored run's, or a fresh measurement's). */
export async function evidencePlot(
  app: App,
  ev: Evidence,
  run: RunJson,
  records: RunRecord[] = run.records.filter((r) => r.experiment === ev.name),
): Promise<HTMLElement> {
  return renderPlot(app, run, ev.name, ev.lesson, ev.plot, records);
}

/**
 * "Measured in the run of <date> on <device>": the newest run's plot for the query, with a link
 * to its lesson; empty when no lesson declares such a plot or no run has its records.
 */
export async function runEvidence(app: App, q: PlotQuery): Promise<HTMLElement> {
  const box = h("div", { class: "evidence", "data-testid": "run-evidence" });
  const first = await findLesson(app, q);
  const run = await newestRunWith(app, first?.name);
  const ev = first ?? (await findLesson(app, q, run));
  if (!ev || !run || !experiments(run).includes(ev.name)) return box;
  const lesson = lessonOf(run.lessons, await app.catalogue(), ev.name);
  box.append(
    h(
      "h3",
      {},
      t("explainer.from_run", {
        date: run.context?.date ?? "?",
        device: String(run.context?.device?.name ?? "?"),
      }),
    ),
    await evidencePlot(app, { ...ev, lesson }, run),
    h(
      "p",
      { class: "muted" },
      h("a", { href: `#/lesson/${ev.name}` }, t("explainer.lesson_link", { name: ev.name })),
    ),
  );
  return box;
}

/** The run request of "measure on this GPU" for the lesson the query names. */
export async function measureRequest(
  app: App,
  q: PlotQuery,
  axes: Record<string, (string | number)[]>,
): Promise<{
  experiments: string[];
  variants?: string[];
  axes: Record<string, (string | number)[]>;
}> {
  const ev = await findLesson(app, q);
  if (!ev) throw new Error(t("explainer.no_lesson"));
  return {
    experiments: [ev.name],
    ...(ev.plot.variants?.length ? { variants: ev.plot.variants } : {}),
    axes,
  };
}

/** A fresh measurement's records drawn as the lesson's declared plot. */
export async function measuredPlot(
  app: App,
  q: PlotQuery,
  records: RunRecord[],
  run: RunJson | undefined,
): Promise<HTMLElement> {
  const ev = await findLesson(app, q, run);
  if (!ev) return h("p", { class: "muted" }, t("explainer.no_lesson"));
  const r: RunJson = run ?? { records, context: { device: app.device ?? undefined } };
  return evidencePlot(
    app,
    ev,
    r,
    records.filter((x) => x.experiment === ev.name),
  );
}
