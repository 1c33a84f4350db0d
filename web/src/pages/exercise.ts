// #/exercise/<name> : statement, CodeMirror editor with the starter, check (POST with the token),
// the result with the lesson's plots and the learner's kernel among the variants, attempts in
// localStorage, and the quiz (answers computed by memlab's models on the server).
import type { App } from "../app";
import { apiGet, apiPost, ApiError } from "../api";
import { addAttempt, attempts, draftKey } from "../attempts";
import { clear, h } from "../dom";
import { num, t } from "../i18n";
import { renderMarkdown } from "../markdown";
import { createEditor } from "../editor";
import { ladderSection } from "../plots/lessons";
import type { RunJson, RunRecord } from "../records";
import { field, loc } from "./exercises";

export const title = "exercise.title";

interface QuizItem {
  question?: unknown;
  choices?: unknown[];
  model_answer: number;
  unit?: string;
  [k: string]: unknown;
}

interface ExerciseJson {
  name: string;
  lesson?: string;
  statement?: unknown;
  starter?: string;
  hints?: unknown[];
  target?: unknown;
  quiz?: QuizItem[];
  [k: string]: unknown;
}

interface CheckResult {
  passed?: boolean;
  verdict?: string;
  message?: string;
  error?: string;
  compile_log?: string;
  diagnostics?: { line: number; message: string }[];
  figures?: Record<string, number>;
  records?: RunRecord[];
  run?: RunJson;
  [k: string]: unknown;
}

/** A quiz answer matches the model's within 1 % (or exactly for integers). */
export function quizCorrect(given: string, answer: number): boolean {
  const v = Number(given.replace(",", ".").replace(/[^0-9.eE+-]/g, ""));
  if (!Number.isFinite(v) || given.trim() === "") return false;
  return Number.isInteger(answer) ? v === answer : Math.abs(v - answer) <= Math.abs(answer) * 0.01;
}

function quiz(items: QuizItem[]): HTMLElement {
  const box = h("section", { class: "quiz", "data-testid": "quiz" }, h("h2", {}, t("quiz.title")));
  items.forEach((q, i) => {
    const input = h("input", {
      type: "text",
      inputmode: "decimal",
      "aria-label": t("quiz.answer"),
    });
    const res = h("span", { class: "quiz-result" });
    const check = () => {
      const ok = quizCorrect(input.value, q.model_answer);
      res.textContent = ok ? "✓ " + t("quiz.right") : "✗ " + t("quiz.wrong");
      res.className = `quiz-result ${ok ? "ok" : "bad"}`;
    };
    input.addEventListener("keydown", (e) => e.key === "Enter" && check());
    box.append(
      h(
        "div",
        { class: "quiz-q" },
        h("p", {}, `${i + 1}. ${loc(q.question ?? q[`question_${"en"}`])}`),
        input,
        q.unit ? ` ${q.unit} ` : " ",
        h("button", { type: "button", onclick: check }, t("quiz.check")),
        " ",
        res,
        h(
          "details",
          {},
          h("summary", {}, t("quiz.show")),
          h("span", {}, num(q.model_answer, 3) + " " + t("quiz.from_model")),
        ),
      ),
    );
  });
  return box;
}

function resultView(app: App, r: CheckResult, name: string): HTMLElement {
  const passed = r.passed ?? r.verdict === "pass";
  const box = h("div", {
    class: `check-result ${passed ? "ok" : "bad"}`,
    "data-testid": "check-result",
  });
  box.append(
    h(
      "p",
      { class: "verdict" },
      passed ? "✓ " + t("exercise.passed") : "✗ " + t("exercise.failed"),
      r.message ? ` — ${r.message}` : "",
    ),
  );
  if (r.compile_log) box.append(h("pre", { class: "code log" }, r.compile_log));
  if (r.figures)
    box.append(
      h(
        "table",
        { class: "context" },
        h(
          "tbody",
          {},
          Object.entries(r.figures).map(([k, v]) =>
            h("tr", {}, h("th", {}, k), h("td", { class: "num" }, num(v, 3))),
          ),
        ),
      ),
    );
  const records = r.records ?? r.run?.records;
  if (records?.length) {
    const run: RunJson = r.run ?? { records };
    const mine = records.find(
      (x) => x.variant === "learner" || x.variant === name || x.variant === "yours",
    )?.variant;
    box.append(ladderSection(run, records, mine));
  }
  void app;
  return box;
}

export async function render(root: HTMLElement, app: App, name: string): Promise<void> {
  if (app.mode !== "serve") {
    root.append(
      h("h1", {}, t("exercise.title")),
      h("p", { class: "muted" }, t("exercises.report_mode")),
    );
    return;
  }
  let ex: ExerciseJson;
  try {
    ex = await apiGet<ExerciseJson>(`api/exercises/${encodeURIComponent(name)}`);
  } catch (e) {
    root.append(
      h("h1", {}, name),
      h("p", { class: "muted" }, t("exercises.unavailable", { message: (e as Error).message })),
    );
    return;
  }
  const statement = h("article", { class: "doc" });
  statement.innerHTML = renderMarkdown(field(ex, "statement"));
  const starter = ex.starter ?? "";
  let source = (() => {
    try {
      return localStorage.getItem(draftKey(name)) ?? starter;
    } catch {
      return starter;
    }
  })();
  const editorBox = h("div", { class: "editor", "data-testid": "editor" });
  const result = h("div", {});
  const history = h("ul", { class: "attempts" });
  const drawHistory = () => {
    clear(history);
    for (const a of attempts(name).slice(0, 8))
      history.append(
        h(
          "li",
          { class: a.passed ? "ok" : "bad" },
          `${new Date(a.date).toLocaleString()} — ${a.passed ? "✓" : "✗"} ${a.summary}`,
        ),
      );
  };
  const view = createEditor(editorBox, source, (text) => {
    source = text;
    try {
      localStorage.setItem(draftKey(name), text);
    } catch {
      /* ignore */
    }
  });
  const checkBtn = h(
    "button",
    { type: "button", class: "primary", "data-testid": "check" },
    t("exercise.check"),
  );
  checkBtn.addEventListener("click", async () => {
    checkBtn.disabled = true;
    clear(result);
    result.append(h("p", { class: "muted" }, t("exercise.checking")));
    try {
      const r = await apiPost<CheckResult>(
        `api/exercises/${encodeURIComponent(name)}/check`,
        { source },
        true,
      );
      clear(result);
      result.append(resultView(app, r, name));
      addAttempt(name, {
        date: new Date().toISOString(),
        source,
        passed: !!(r.passed ?? r.verdict === "pass"),
        summary: r.message ?? r.verdict ?? "",
      });
    } catch (e) {
      clear(result);
      result.append(
        h(
          "p",
          { class: "error", "data-testid": "check-error" },
          e instanceof ApiError ? e.message : String(e),
        ),
      );
      addAttempt(name, {
        date: new Date().toISOString(),
        source,
        passed: false,
        summary: e instanceof Error ? e.message : String(e),
      });
    } finally {
      checkBtn.disabled = false;
      drawHistory();
    }
  });
  const reset = h("button", { type: "button" }, t("exercise.reset"));
  reset.addEventListener("click", () =>
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: starter } }),
  );
  const hints = (ex.hints ?? []).map((x, i) =>
    h("details", { class: "hint" }, h("summary", {}, t("exercise.hint", { n: i + 1 })), loc(x)),
  );
  const parts: (HTMLElement | null)[] = [
    h("h1", {}, field(ex, "title") || name),
    ex.lesson
      ? h(
          "p",
          {},
          h("a", { href: `#/lesson/${ex.lesson}` }, t("exercise.lesson", { lesson: ex.lesson })),
        )
      : null,
    statement,
    field(ex, "target")
      ? h("p", { class: "callout" }, t("exercise.target"), " ", field(ex, "target"))
      : null,
    ...hints,
    editorBox,
    h("div", { class: "controls" }, checkBtn, reset),
    result,
    h("h3", {}, t("exercise.attempts")),
    history,
    ex.quiz?.length ? quiz(ex.quiz) : null,
  ];
  root.append(...parts.filter((x): x is HTMLElement => x !== null));
  drawHistory();
}
