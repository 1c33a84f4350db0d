// #/claims : every quantitative claim of the course (memlab claims) with its verdict on the GPU
// of a stored run, its evidence (the records) and its source (seed and line). #/claims/<id>
// selects the run. Without runs: the claims and the plan that would measure them.
// claimsAside(): the claims of one explainer, shown under it (main.ts).
import type { App } from "../app";
import { apiGet } from "../api";
import { isClass } from "../classlab";
import {
  claimsForPage,
  groupByPage,
  pageHash,
  parseClaims,
  sourceOf,
  verdictKey,
  type Claim,
  type ClaimsJson,
} from "../claims";
import { h, select } from "../dom";
import { t } from "../i18n";

export const title = "claims.title";

function verdictBadge(c: Claim): HTMLElement {
  const key = verdictKey(c.verdict);
  return h(
    "span",
    { class: `claim-verdict v-${key}`, "data-verdict": key },
    t(`claims.verdict.${key}`),
  );
}

function claimRow(c: Claim): HTMLElement {
  const src = sourceOf(c.source);
  return h(
    "tr",
    { "data-claim": c.id, class: `v-${verdictKey(c.verdict)}` },
    h(
      "td",
      {},
      h("q", { class: "claim-quote" }, c.quote),
      h(
        "div",
        { class: "muted small" },
        src.line === null ? c.source : t("claims.source", { seed: src.seed, line: src.line }),
      ),
    ),
    h(
      "td",
      {},
      verdictBadge(c),
      c.reason ? h("div", { class: "claim-reason muted small" }, c.reason) : null,
      c.measured ? h("div", { class: "claim-measured" }, c.measured) : null,
    ),
    h(
      "td",
      { class: "small" },
      h("div", {}, c.test),
      c.evidence ? h("div", { class: "claim-evidence muted" }, c.evidence) : null,
      h("div", { class: "muted" }, t("claims.rule"), " ", c.rule),
      c.condition ? h("div", { class: "muted" }, t("claims.condition"), " ", c.condition) : null,
    ),
  );
}

export function claimsTable(claims: Claim[]): HTMLElement {
  return h(
    "table",
    { class: "claims", "data-testid": "claims-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, t("claims.col.claim")),
        h("th", {}, t("claims.col.verdict")),
        h("th", {}, t("claims.col.test")),
      ),
    ),
    h("tbody", {}, claims.map(claimRow)),
  );
}

export function summary(data: ClaimsJson): HTMLElement {
  const c = data.counts;
  if (!c) return h("p", { class: "muted", "data-testid": "claims-summary" }, t("claims.no_run"));
  return h(
    "p",
    { class: "claims-summary", "data-testid": "claims-summary" },
    t("claims.summary", {
      n: data.claims.length,
      holds: c.holds,
      different: c.holds_different,
      fails: c.does_not_hold,
      none: c.no_record,
      untestable: c.not_testable ?? 0,
    }),
  );
}

/** The runs the claims can be judged on, the chosen one (arg or the latest) and its claims. */
async function chosen(app: App, arg: string) {
  let runs: Awaited<ReturnType<App["listRuns"]>> = [];
  try {
    runs = await app.listRuns();
  } catch {
    runs = [];
  }
  const id = runs.some((r) => r.id === arg) ? arg : runs[runs.length - 1]?.id;
  return { runs, id, data: await app.getClaims(id) };
}

/** The claims grouped by explainer page, one table each. */
export function claimGroups(data: ClaimsJson): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const [page, claims] of groupByPage(data)) {
    const hash = pageHash(page);
    out.push(
      h(
        "h2",
        { "data-group": page || "other" },
        hash ? h("a", { href: hash }, t(`claims.page.${page}`)) : t("claims.page.other"),
      ),
      claimsTable(claims),
    );
  }
  return out;
}

/** A class lab's latest class claims run (GET /api/class/claims), or null when there is none. */
export async function classClaims(): Promise<ClaimsJson | null> {
  try {
    const data = parseClaims(await apiGet<unknown>("api/class/claims"));
    return data.claims.length && data.counts ? data : null;
  } catch {
    return null;
  }
}

export async function render(root: HTMLElement, app: App, arg: string): Promise<void> {
  root.append(h("h1", {}, t("claims.title")), h("p", { class: "lead" }, t("claims.lead")));
  if (isClass(app.me) && !arg) {
    // The class's run of `memlab claims` on the server's GPU, the same for everyone.
    const data = await classClaims();
    if (data) {
      root.append(
        h(
          "p",
          { class: "callout", "data-testid": "class-claims" },
          t("claims.class_run", { run: data.run ?? "" }),
        ),
        summary(data),
        ...claimGroups(data),
      );
      return;
    }
    root.append(
      h("p", { class: "muted", "data-testid": "class-claims-none" }, t("claims.class_none")),
    );
  }
  const { runs, id, data } = await chosen(app, arg);
  if (runs.length && id !== undefined) {
    root.append(
      h(
        "div",
        { class: "controls" },
        h(
          "label",
          { class: "field" },
          h("span", {}, t("results.run")),
          select(
            runs.map((r) => [r.id, [r.id, r.device, r.date].filter(Boolean).join(" · ")]),
            id,
            (v) => (location.hash = `#/claims/${encodeURIComponent(v)}`),
            { "data-testid": "claims-run" },
          ),
        ),
      ),
    );
  }
  root.append(summary(data), ...claimGroups(data));
  if (!data.counts && data.plan) {
    root.append(h("h2", {}, t("claims.plan")), h("pre", { class: "code" }, data.plan));
  }
}

/** Under an explainer: its claims with the verdicts of the latest run (none: nothing shown). */
export async function claimsAside(app: App, page: string): Promise<HTMLElement | null> {
  let data: ClaimsJson;
  try {
    data = (await chosen(app, "")).data;
  } catch {
    return null; // a server without /api/claims: the explainer stands alone
  }
  const claims = claimsForPage(data, page);
  if (!claims.length) return null;
  return h(
    "section",
    { class: "claims-aside", "data-testid": "claims-aside" },
    h("h2", {}, t("claims.aside")),
    claimsTable(claims),
    h(
      "p",
      { class: "muted small" },
      data.run ? t("claims.from_run", { run: data.run }) : null,
      " ",
      h("a", { href: "#/claims" }, t("claims.all")),
    ),
  );
}
