// #/results : the runs (the report's, or the server's results folder), the run context, every
// lesson's plots, failures/skips/warnings.  #/results/<id> selects a run.
import type { App } from "../app";
import { clear, h, select } from "../dom";
import { t } from "../i18n";
import { lessonPlots } from "../plots/render";
import {
  expectedFailures,
  experiments,
  failures,
  groupFailures,
  skipGroups,
  type RunJson,
} from "../records";

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

/**
 * What the run's records say beyond their numbers: failed checks (red, the only failures),
 * expected failures as the lesson's teaching point, skips collapsed per reason with their count,
 * warnings once per lesson.
 */
export function statusList(run: RunJson, experiment?: string): HTMLElement {
  const records = experiment ? run.records.filter((r) => r.experiment === experiment) : run.records;
  const sub: RunJson = { ...run, records };
  const list = groupFailures(failures(sub));
  const failed = list.filter((f) => f.kind === "failed");
  const notes = list.filter((f) => f.kind === "note");
  const expected = expectedFailures(records);
  const skips = skipGroups(records);
  const box = h("div", { class: "status-list", "data-testid": "status" });
  if (!failed.length)
    box.append(h("p", { class: "ok", "data-testid": "no-failures" }, t("results.no_failed")));
  const items: HTMLElement[] = [
    ...failed.map((f) =>
      h(
        "li",
        { class: "failed" },
        h("strong", {}, t("results.kind.failed")),
        ` ${f.record}: ${f.text}`,
      ),
    ),
    ...expected.map((e) =>
      h(
        "li",
        { class: "expected", "data-testid": "expected-failure" },
        h("strong", {}, t("results.kind.expected_failure")),
        ` ${e.experiment}/${e.variant}: `,
        h("em", {}, e.lesson || e.variant),
        e.observed ? ` (${t("results.caught", { detail: e.detail.split(";")[0] ?? "" })})` : "",
      ),
    ),
    ...skips.map((g) =>
      h(
        "li",
        { class: "skipped", "data-testid": "skip-group" },
        h("strong", {}, t("results.skipped_n", { n: g.count })),
        experiment ? " " : ` ${g.experiment} `,
        `(${g.variants.join(", ")}): ${g.reason}`,
      ),
    ),
    ...notes.map((f) =>
      h(
        "li",
        { class: "note" },
        h("strong", {}, t("results.kind.note")),
        ` ${f.record.split("/")[0]!}: ${f.text}`,
        f.count > 1 ? ` (${t("results.times", { n: f.count })})` : "",
      ),
    ),
  ];
  if (items.length) box.append(h("ul", { class: "failures", "data-testid": "failures" }, items));
  return box;
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
    statusList(run),
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
    sec.append(await lessonPlots(app, run, name, await app.lesson(run, name)));
  }
  clear(toc);
  toc.append(...names.map((n) => h("a", { href: `#/lesson/${n}` }, n)));
}
