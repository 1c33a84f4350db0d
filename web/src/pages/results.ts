// #/results : the runs (the report's, or the server's results folder), the run context, every
// lesson's plots, failures/skips/warnings.  #/results/<id> selects a run.
import type { App } from "../app";
import { clear, h, select } from "../dom";
import { t } from "../i18n";
import { lessonPlots } from "../plots/lessons";
import { experiments, failures, groupFailures, type RunJson } from "../records";

export const title = "results.title";

export function contextTable(run: RunJson): HTMLElement {
  const c = run.context ?? {};
  const d = (c.device ?? {}) as Record<string, unknown>;
  const clocks = c.clocks_mhz ?? {};
  const rows: [string, string][] = [
    [
      "results.ctx.device",
      `${d.name ?? "?"} (sm_${String(d.compute_capability ?? "?").replace(".", "")}, ${d.sm_count ?? "?"} SMs)`,
    ],
    ["results.ctx.date", String(c.date ?? "?")],
    [
      "results.ctx.clocks",
      `SM ${clocks.sm_start ?? "?"}→${clocks.sm_end ?? "?"} MHz, mem ${clocks.mem_start ?? "?"}→${clocks.mem_end ?? "?"} MHz`,
    ],
    [
      "results.ctx.driver",
      `driver ${c.driver_version ?? "?"}, runtime ${c.runtime_version ?? "?"}`,
    ],
    [
      "results.ctx.commit",
      `${c.tool?.name ?? "memlab"} ${c.tool?.version ?? ""} ${c.tool?.git_commit ?? ""}`,
    ],
    ["results.ctx.seed", String(c.seed ?? "?")],
    ["results.ctx.l2", c.l2_flushed ? t("results.yes") : t("results.no")],
    ["results.ctx.quick", c.quick ? t("results.yes") : t("results.no")],
    [
      "results.ctx.memcpy",
      run.ceilings?.memcpy_d2d?.gbps ? `${run.ceilings.memcpy_d2d.gbps.toFixed(0)} GB/s` : "—",
    ],
    ["results.ctx.command", String(c.command_line ?? "")],
  ];
  return h(
    "table",
    { class: "context", "data-testid": "context" },
    h(
      "tbody",
      {},
      rows.map(([k, v]) => h("tr", {}, h("th", {}, t(k)), h("td", {}, v))),
    ),
  );
}

export function failureList(run: RunJson): HTMLElement {
  const list = groupFailures(failures(run));
  if (!list.length) return h("p", { class: "ok" }, t("results.no_failures"));
  return h(
    "ul",
    { class: "failures", "data-testid": "failures" },
    list.map((f) =>
      h(
        "li",
        { class: f.kind },
        h("strong", {}, t(`results.kind.${f.kind}`)),
        " ",
        f.kind === "note" ? f.record.split("/")[0]! : f.record,
        ": ",
        f.text,
        f.count > 1 ? ` (${t("results.times", { n: f.count })})` : "",
      ),
    ),
  );
}

export async function render(root: HTMLElement, app: App, arg: string): Promise<void> {
  root.append(h("h1", {}, t("results.title")));
  const runs = await app.listRuns();
  if (!runs.length) {
    root.append(h("p", { class: "muted" }, t("results.none")));
    return;
  }
  const id = arg || runs[runs.length - 1]!.id;
  root.append(
    h(
      "div",
      { class: "controls" },
      h(
        "label",
        { class: "field" },
        h("span", {}, t("results.run")),
        select(
          runs.map((r) => [
            r.id,
            `${r.date ?? r.id} · ${r.device ?? ""} · ${r.records ?? "?"} ${t("results.records")}`,
          ]),
          id,
          (v) => (location.hash = `#/results/${encodeURIComponent(v)}`),
          { "data-testid": "run-select" },
        ),
      ),
      runs.length > 1 ? h("a", { href: "#/compare", class: "button" }, t("nav.compare")) : null,
    ),
  );
  const run = await app.getRun(id);
  const names = experiments(run);
  const toc = h(
    "nav",
    { class: "toc" },
    names.map((n) => h("a", { href: `#/lesson/${n}` }, n)),
  );
  root.append(
    h("h2", {}, t("results.context")),
    contextTable(run),
    h("h2", {}, t("results.failures")),
    failureList(run),
    h("h2", {}, t("results.lessons")),
    toc,
  );
  const body = h("div", {});
  root.append(body);
  for (const name of names) {
    const sec = h(
      "section",
      { class: "lesson", id: `lesson-${name}` },
      h("h2", {}, h("a", { href: `#/lesson/${name}` }, name)),
    );
    body.append(sec);
    sec.append(await lessonPlots(app, run, name));
  }
  clear(toc);
  toc.append(...names.map((n) => h("a", { href: `#/lesson/${n}` }, n)));
}
