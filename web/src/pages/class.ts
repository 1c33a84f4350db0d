// #/class (the teacher): the join code; per exercise who passed, when and in how many attempts,
// each learner's best time beside the lesson's variants (plots/charts.ts), the failures by kind
// and the most common one with an example attempt; per learner the progress through the lessons;
// the CSV/JSON export; the learners with revoke; the class claims run (GET/POST
// /api/class/claims; its verdicts on #/claims for everyone).
import type { App } from "../app";
import { apiGet, apiPost, apiText, ApiError } from "../api";
import {
  bestBars,
  exerciseRows,
  exportName,
  failureCounts,
  progressOf,
  statusKey,
  when,
  type Overview,
  type OverviewExercise,
  type OverviewLearner,
} from "../classlab";
import { waitJob, type JobJson } from "../check";
import { clear, h } from "../dom";
import { has, lang, num, t } from "../i18n";
import { bestTimesChart } from "../plots/charts";
import { classClaims, summary } from "./claims";
import { queueLine } from "./checking";

export const title = "class.title";

interface LearnerEntry {
  learner_id: string | number;
  name: string;
  created_at?: string;
  expires_at?: string;
  revoked?: boolean;
}

/** A status in the reader's language ("compile error"), or as the server spelled it. */
export function statusText(status: string): string {
  const k = statusKey(status);
  return k && has(k) ? t(k) : status;
}

function exerciseSection(ex: OverviewExercise): HTMLElement {
  const rows = exerciseRows(ex);
  const passed = rows.filter((r) => r.passed).length;
  const table = h(
    "table",
    { class: "class-exercise" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["learner", "passed", "attempts", "best", "achieved"].map((c) =>
          h("th", {}, t(`class.col.${c}`)),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { class: r.passed ? "passed" : "open", "data-learner": r.name },
          h("td", {}, r.name),
          h("td", {}, r.passed ? `✓ ${when(r.when, lang())}` : "—"),
          h("td", { class: "num" }, String(r.attempts)),
          h("td", { class: "num" }, r.median_ms !== null ? `${num(r.median_ms, 4)} ms` : ""),
          h(
            "td",
            { class: `num ${r.met === true ? "ok" : r.met === false ? "bad" : ""}` },
            r.achieved !== null
              ? t("class.achieved", { achieved: num(r.achieved, 2), target: num(r.target ?? 0, 2) })
              : "",
          ),
        ),
      ),
    ),
  );
  const bars = bestBars(ex).map((b) =>
    b.kind === "variant" ? { ...b, label: t("class.variant", { variant: b.label }) } : b,
  );
  const fails = failureCounts(ex);
  const mc = ex.most_common;
  return h(
    "section",
    { class: "class-ex", "data-exercise": ex.exercise },
    h(
      "h3",
      {},
      h("a", { href: `#/exercise/${encodeURIComponent(ex.exercise)}` }, ex.exercise),
      ex.lesson ? h("span", { class: "muted small" }, ` · ${ex.lesson}`) : null,
    ),
    h(
      "p",
      { class: "muted", "data-testid": "class-passed" },
      t("class.passed_of", { n: passed, total: rows.length }),
    ),
    h("div", { class: "table-wrap" }, table),
    bars.length
      ? h("div", { class: "chart", "data-testid": "class-chart" }, bestTimesChart(bars))
      : null,
    fails.length
      ? h(
          "p",
          { class: "small", "data-testid": "class-failures" },
          t("class.failures"),
          " ",
          fails.map(([s, n]) => `${statusText(s)} ${n}×`).join(" · "),
        )
      : null,
    mc && mc.count > 0
      ? h(
          "p",
          { class: "callout small", "data-testid": "class-most-common" },
          t("class.most_common", { status: statusText(mc.status), n: mc.count }),
          mc.example
            ? [
                " ",
                h(
                  "a",
                  {
                    href: `#/exercise/${encodeURIComponent(ex.exercise)}?attempt=${encodeURIComponent(String(mc.example.attempt_id))}`,
                    "data-testid": "class-example",
                  },
                  t("class.example", { learner: mc.example.learner }),
                ),
                mc.example.message ? h("code", { class: "example-msg" }, mc.example.message) : null,
              ]
            : null,
        )
      : null,
  );
}

function progressTable(learners: OverviewLearner[]): HTMLElement {
  return h(
    "table",
    { class: "class-progress", "data-testid": "class-progress" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["learner", "attempts", "done", "lessons"].map((c) => h("th", {}, t(`class.col.${c}`))),
      ),
    ),
    h(
      "tbody",
      {},
      [...learners]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((l) => {
          const p = progressOf(l);
          return h(
            "tr",
            { "data-learner": l.name },
            h("td", {}, l.name),
            h("td", { class: "num" }, String(l.attempts)),
            h("td", { class: "num" }, `${p.done}/${p.total}`),
            h(
              "td",
              { class: "lessons" },
              p.lessons.map((x) =>
                h(
                  "span",
                  {
                    class: `lesson-meter ${x.passed >= x.total ? "done" : x.passed > 0 ? "some" : ""}`,
                    title: `${x.lesson}: ${x.passed}/${x.total}`,
                  },
                  `${x.lesson} ${x.passed}/${x.total}`,
                ),
              ),
            ),
          );
        }),
    ),
  );
}

function learnersTable(list: LearnerEntry[], reload: () => void, error: HTMLElement): HTMLElement {
  return h(
    "table",
    { class: "class-learners", "data-testid": "class-learners" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["learner", "joined", "expires", "action"].map((c) => h("th", {}, t(`class.col.${c}`))),
      ),
    ),
    h(
      "tbody",
      {},
      list.map((l) =>
        h(
          "tr",
          { "data-learner": l.name, class: l.revoked ? "revoked" : null },
          h("td", {}, l.name),
          h("td", {}, when(l.created_at, lang())),
          h("td", {}, when(l.expires_at, lang())),
          h(
            "td",
            {},
            l.revoked
              ? h("span", { class: "muted" }, t("class.revoked"))
              : h(
                  "button",
                  {
                    type: "button",
                    "data-testid": "revoke",
                    onclick: async () => {
                      if (!confirm(t("class.revoke_confirm", { name: l.name }))) return;
                      try {
                        await apiPost(
                          `api/class/learners/${encodeURIComponent(String(l.learner_id))}/revoke`,
                          {},
                        );
                      } catch (e) {
                        error.textContent = (e as Error).message;
                      }
                      reload();
                    },
                  },
                  t("class.revoke"),
                ),
          ),
        ),
      ),
    ),
  );
}

/** A download of the class's export (the token is a header, so not a plain link). */
function exportButton(ext: "csv" | "json", className: string | undefined, error: HTMLElement) {
  return h(
    "button",
    {
      type: "button",
      "data-testid": `export-${ext}`,
      onclick: async () => {
        try {
          const text = await apiText(`api/class/export.${ext}`);
          const type = ext === "csv" ? "text/csv" : "application/json";
          const url = URL.createObjectURL(new Blob([text], { type }));
          const a = h("a", { href: url, download: exportName(className, ext, new Date()) });
          document.body.append(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(url), 1000);
        } catch (e) {
          error.textContent = (e as Error).message;
        }
      },
    },
    t(`class.export_${ext}`),
  );
}

function claimsBox(stopped: () => boolean): HTMLElement {
  const box = h("div", { "data-testid": "class-claims-box" });
  const line = h("p", { class: "muted", "data-testid": "class-claims-status" });
  const latest = h("div", {});
  const showLatest = async () => {
    clear(latest);
    const data = await classClaims();
    latest.append(
      data
        ? h("div", {}, summary(data), h("a", { href: "#/claims" }, t("claims.all")))
        : h("p", { class: "muted" }, t("claims.class_none")),
    );
  };
  const start = h(
    "button",
    {
      type: "button",
      class: "primary",
      "data-testid": "class-claims-run",
      onclick: async () => {
        start.disabled = true;
        try {
          const q = await apiPost<{ job: string | number; position?: number; eta_s?: number }>(
            "api/class/claims",
            {},
          );
          const first: JobJson = {
            id: q.job,
            state: "queued",
            position: q.position,
            eta_s: q.eta_s,
          };
          const job = await waitJob(
            q.job,
            {
              post: () => Promise.reject(new Error("unused")),
              get: (p) => apiGet<JobJson>(p),
              sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
              stopped,
              onUpdate: (j) => (line.textContent = queueLine(j)),
            },
            first,
          );
          line.textContent = t(`check.state.${job.state}`) + (job.error ? ` — ${job.error}` : "");
          await showLatest();
        } catch (e) {
          line.textContent =
            e instanceof ApiError && e.status === 429 ? t("check.limit") : (e as Error).message;
        } finally {
          start.disabled = false;
        }
      },
    },
    t("class.claims_run"),
  );
  box.append(h("div", { class: "controls" }, start), line, latest);
  void showLatest();
  return box;
}

export async function render(root: HTMLElement, app: App): Promise<() => void> {
  let left = false;
  const me = app.me;
  root.append(
    h(
      "h1",
      {},
      me?.class?.name ? t("class.title_named", { name: me.class.name }) : t("class.title"),
    ),
  );
  if (!me || (me.role !== "teacher" && me.role !== "owner")) {
    root.append(
      h("p", { class: "muted", "data-testid": "class-teacher-only" }, t("class.teacher_only")),
    );
    return () => {};
  }
  const error = h("p", { class: "error", "data-testid": "class-error" });
  if (me.class?.code) {
    const link = `${location.origin}${location.pathname}#/join/${encodeURIComponent(me.class.code)}`;
    root.append(
      h(
        "p",
        { class: "callout", "data-testid": "class-code" },
        t("class.code", { code: me.class.code }),
        " ",
        h("code", {}, link),
      ),
    );
  }
  let overview: Overview;
  try {
    overview = await apiGet<Overview>("api/class/overview");
  } catch (e) {
    root.append(
      h("p", { class: "error" }, t("class.unavailable", { message: (e as Error).message })),
    );
    return () => {};
  }
  const learnersBox = h("div", {});
  const loadLearners = async () => {
    clear(learnersBox);
    try {
      const list = await apiGet<LearnerEntry[]>("api/class/learners");
      learnersBox.append(
        h(
          "div",
          { class: "table-wrap" },
          learnersTable(list, () => void loadLearners(), error),
        ),
      );
    } catch (e) {
      learnersBox.append(h("p", { class: "muted" }, (e as Error).message));
    }
  };
  root.append(
    error,
    h(
      "div",
      { class: "controls" },
      exportButton("csv", me.class?.name, error),
      exportButton("json", me.class?.name, error),
    ),
    h("h2", {}, t("class.exercises")),
    ...(overview.exercises ?? []).map(exerciseSection),
    h("h2", {}, t("class.progress")),
    h("div", { class: "table-wrap" }, progressTable(overview.learners ?? [])),
    h("h2", {}, t("class.learners")),
    learnersBox,
    h("h2", {}, t("class.claims")),
    claimsBox(() => left),
  );
  await loadLearners();
  return () => {
    left = true;
  };
}
