// A check on the exercise page: its place in the queue and the wait while it is queued (with a
// cancel button), then the result as the check's JSON says it (verdict, the learner's lines, the
// points, the kernel among the lesson's variants), or how the job ended without one.
import { apiGet, apiPost, apiPostStatus, ApiError } from "../api";
import { diagnosisView } from "./exercise_diagnosis";
import { countersSection } from "./exercise_counters";
import { compilerSection } from "./exercise_compiler";
import type { Diagnosis } from "../diagnosis";
import {
  checkView,
  etaText,
  lastProgress,
  YOURS,
  type CheckDeps,
  type CheckJson,
  type CheckOutcome,
  type JobJson,
} from "../check";
import { clear, h } from "../dom";
import { t } from "../i18n";
import { ladderSection } from "../plots/ladder";

/** The status line's text for a job that has not ended. */
export function queueLine(job: JobJson): string {
  if (job.state === "running") {
    const p = lastProgress(job);
    return p ? t("check.running_what", { what: p }) : t("check.running");
  }
  const eta = etaText(job.eta_s);
  if (job.position === undefined || job.position === null) return t("check.queued");
  return eta
    ? t("check.place_eta", { n: job.position, eta })
    : t("check.place", { n: job.position });
}

/** The page's polling: the status line follows the job; a cancel button while it waits. */
export function checkDeps(line: HTMLElement, stopped: () => boolean): CheckDeps {
  return {
    post: (path, body) => apiPostStatus<unknown>(path, body),
    get: (path) => apiGet<JobJson>(path),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    stopped,
    onUpdate(job, superseded) {
      clear(line);
      line.dataset.state = job.state;
      line.append(queueLine(job));
      if (superseded.length)
        line.append(
          " ",
          h("span", { class: "small" }, t("check.superseded_older", { n: superseded.length })),
        );
      line.append(
        " ",
        h(
          "button",
          {
            type: "button",
            class: "link",
            "data-testid": "check-cancel",
            onclick: (ev: Event) => {
              (ev.target as HTMLButtonElement).disabled = true;
              void apiPost(`api/jobs/${encodeURIComponent(String(job.id))}/cancel`, {}).catch(
                () => {},
              );
            },
          },
          t("check.cancel"),
        ),
      );
    },
  };
}

/** The one line of a check that got no answer: rate limit, queue full, bad input, network. */
export function checkError(e: unknown): string {
  if (e instanceof ApiError && e.status === 429)
    return e.retryAfter !== null ? t("check.limit_wait", { s: e.retryAfter }) : t("check.limit");
  if (e instanceof ApiError && e.parameter)
    return t("check.error_parameter", { parameter: e.parameter, message: e.message });
  return e instanceof Error ? e.message : String(e);
}

export function resultView(r: CheckJson, onLine: (line: number) => void = () => {}): HTMLElement {
  const v = checkView(r);
  const box = h("div", {
    class: `check-result ${v.passed ? "ok" : "bad"}`,
    "data-testid": "check-result",
  });
  box.append(
    h(
      "p",
      { class: "verdict" },
      v.passed ? "✓ " + t("exercise.passed") : "✗ " + t("exercise.failed"),
      v.message ? ` — ${v.message}` : "",
    ),
  );
  const diagnosis = diagnosisView(r.diagnosis as Diagnosis | undefined, onLine);
  if (diagnosis) box.append(diagnosis);
  if (v.diagnostics.length)
    box.append(
      h(
        "ul",
        { class: "diagnostics", "data-testid": "diagnostics" },
        v.diagnostics.map((d) => h("li", {}, `${t("exercise.line", { n: d.line })}: ${d.message}`)),
      ),
    );
  if (v.log) box.append(h("pre", { class: "code log" }, v.log));
  if (v.points.length)
    box.append(
      h(
        "ul",
        { class: "points" },
        v.points.map((p) =>
          h("li", { class: p.ok ? "ok" : "bad" }, `${p.ok ? "✓" : "✗"} ${p.point} ${p.detail}`),
        ),
      ),
    );
  if (v.run) box.append(ladderSection(v.run, v.run.records, YOURS));
  box.append(
    countersSection(r.measure?.counters, v.passed) ?? "",
    compilerSection(r.compiler) ?? "",
  );
  return box;
}

/** How a queued check ended: its result, or why there is none (cancelled, superseded, failed). */
export function outcomeView(
  out: CheckOutcome,
  onLine: (line: number) => void = () => {},
): HTMLElement {
  const box = h("div", {
    class: "check-outcome",
    "data-testid": "check-outcome",
    "data-state": out.state,
  });
  if (out.result) {
    box.append(resultView(out.result, onLine));
    if (out.attemptId)
      box.append(h("p", { class: "muted small" }, t("check.saved", { id: out.attemptId })));
    return box;
  }
  box.append(
    h(
      "p",
      { class: out.state === "failed" ? "error" : "muted", "data-testid": "check-ended" },
      t(`check.state.${out.state}`),
      out.error ? ` — ${out.error}` : "",
    ),
  );
  return box;
}
