// #/summary[/<run id>] : the run at a glance (the report opens here): device, date, commit,
// clocks, memcpy ceiling; one headline line per lesson (computed by memlab into
// lessons.<name>.headline; a lesson without one shows only its counts); the claims' verdict
// counts; what failed, what was skipped and why.
import type { App } from "../app";
import { h, select } from "../dom";
import { fixed, num, t } from "../i18n";
import type { Headline } from "../lessons";
import { experiments, statusCounts, type RunJson } from "../records";
import { contextTable, statusList } from "./results";

export const title = "summary.title";

function value(v: number): string {
  return Math.abs(v) >= 100 ? num(v, 0) : num(v, Math.abs(v) >= 10 ? 1 : 2);
}

/** The headline as one line of text parts; nothing is computed here that memlab did not write. */
export function headlineText(hl: Headline): string {
  const unit = hl.unit ? ` ${hl.unit}` : "";
  const parts: string[] = [];
  if (hl.best)
    parts.push(
      t("summary.hl.best", { variant: hl.best.variant, value: value(hl.best.value) + unit }),
    );
  if (hl.baseline && hl.baseline.variant !== hl.best?.variant)
    parts.push(
      t("summary.hl.baseline", {
        variant: hl.baseline.variant,
        value: value(hl.baseline.value) + unit,
      }) + (hl.speedup ? ` (${fixed(hl.speedup, 2)}×)` : ""),
    );
  if (hl.vendor)
    parts.push(
      t("summary.hl.vendor", { variant: hl.vendor.variant, value: value(hl.vendor.value) + unit }) +
        (hl.pct_vendor !== undefined ? ` (${num(hl.pct_vendor, 1)} %)` : ""),
    );
  if (hl.model && hl.model.of > 0)
    parts.push(t("summary.hl.model", { within: hl.model.within_15pct, of: hl.model.of }));
  return parts.join(" · ");
}

function lessonRow(run: RunJson, name: string, withHeadlines: boolean): HTMLElement {
  const records = run.records.filter((r) => r.experiment === name);
  const c = statusCounts(records);
  const hl = run.lessons?.[name]?.headline;
  const counts = [
    t("summary.count.timed", { n: c.timed }),
    c.failed ? t("summary.count.failed", { n: c.failed }) : "",
    c.skipped ? t("summary.count.skipped", { n: c.skipped }) : "",
    c.expected_failure ? t("summary.count.expected", { n: c.expected_failure }) : "",
  ].filter(Boolean);
  return h(
    "tr",
    { "data-lesson": name, class: c.failed ? "has-failed" : null },
    h("th", { scope: "row" }, h("a", { href: `#/lesson/${name}` }, name)),
    withHeadlines
      ? h("td", { class: "headline", "data-testid": "headline" }, hl ? headlineText(hl) : "")
      : null,
    withHeadlines ? h("td", { class: "muted" }, hl?.at ?? "") : null,
    h("td", { class: c.failed ? "bad" : "muted" }, counts.join(", ")),
  );
}

export async function render(root: HTMLElement, app: App, arg: string): Promise<void> {
  root.append(h("h1", {}, t("summary.title")));
  const runs = await app.listRuns();
  if (!runs.length) {
    root.append(h("p", { class: "muted" }, t("results.none")));
    return;
  }
  const id = arg || runs[runs.length - 1]!.id;
  if (runs.length > 1)
    root.append(
      h(
        "div",
        { class: "controls" },
        h(
          "label",
          { class: "field" },
          h("span", {}, t("results.run")),
          select(
            runs.map((r) => [r.id, `${r.date ?? r.id} · ${r.device ?? ""}`]),
            id,
            (v) => (location.hash = `#/summary/${encodeURIComponent(v)}`),
          ),
        ),
      ),
    );
  // A run of an unknown schema throws SchemaError: the page shows error.schema (main.ts).
  const run: RunJson = await app.getRun(id);
  const all = statusCounts(run.records);
  // Headlines are memlab's (lessons.<name>.headline); a run without any shows only the counts.
  const withHeadlines = Object.values(run.lessons ?? {}).some((l) => l.headline);
  root.append(
    h(
      "p",
      { class: "lead", "data-testid": "summary-lead" },
      t("summary.lead", {
        records: run.records.length,
        timed: all.timed,
        failed: all.failed,
        skipped: all.skipped,
        lessons: experiments(run).length,
      }),
    ),
    contextTable(run),
    h("h2", {}, t("summary.lessons")),
    h(
      "table",
      { class: "summary", "data-testid": "summary-lessons" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("summary.col.lesson")),
          withHeadlines ? h("th", {}, t("summary.col.headline")) : null,
          withHeadlines ? h("th", {}, t("summary.col.at")) : null,
          h("th", {}, t("summary.col.records")),
        ),
      ),
      h(
        "tbody",
        {},
        experiments(run).map((n) => lessonRow(run, n, withHeadlines)),
      ),
    ),
  );
  const claimsBox = h("div", { "data-testid": "summary-claims" });
  root.append(h("h2", {}, t("summary.claims")), claimsBox);
  try {
    const claims = await app.getClaims(id);
    const c = claims.counts;
    claimsBox.append(
      c
        ? h(
            "p",
            {},
            t("summary.claims_counts", {
              n: claims.claims.length,
              holds: c.holds,
              different: c.holds_different,
              fails: c.does_not_hold,
              none: c.no_record,
            }),
            " ",
            h("a", { href: `#/claims/${encodeURIComponent(id)}` }, t("nav.claims") + " →"),
          )
        : h("p", { class: "muted" }, t("summary.no_claims")),
    );
  } catch {
    claimsBox.append(h("p", { class: "muted" }, t("summary.no_claims")));
  }
  root.append(h("h2", {}, t("results.failures")), statusList(run));
}
