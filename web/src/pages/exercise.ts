// #/exercise/<name> : statement, CodeMirror editor with the starter, check (POST with the token),
// the result with the lesson's plots and the learner's kernel among the variants, attempts in
// localStorage, and the quiz (answers computed by memlab's models on the server).
import type { App } from "../app";
import { apiGet, ApiError } from "../api";
import { addAttempt, attempts, draftKey } from "../attempts";
import { clear, h } from "../dom";
import { lang, num, t } from "../i18n";
import { renderMarkdown } from "../markdown";
import { createEditor } from "../editor";
import { ladderSection } from "../plots/ladder";
import { checkView, runCheck, YOURS, type CheckJson } from "../check";
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
  hints?: unknown[] | Record<string, unknown[]>;
  target?: unknown;
  quiz?: QuizItem[];
  [k: string]: unknown;
}

/** {de: [..], en: [..]} -> the list of the current language. */
function localList(x: Record<string, unknown[]> | undefined): unknown[] {
  if (!x) return [];
  return x[lang()] ?? x.en ?? Object.values(x)[0] ?? [];
}

/** The target's text: {kind, value, text: {de, en}} (GET /api/exercises/<name>) or {de, en}. */
function targetText(ex: ExerciseJson): string {
  const tg = ex.target as { text?: unknown } | undefined;
  return loc(tg && typeof tg === "object" && "text" in tg ? tg.text : tg);
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

function resultView(r: CheckJson): HTMLElement {
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
      const r = await runCheck(name, { source }, (position, eta) => {
        clear(result);
        result.append(
          h(
            "p",
            { class: "muted", "data-testid": "check-queued" },
            t("exercise.queued", { n: position + 1, s: eta === null ? "?" : Math.ceil(eta) }),
          ),
        );
      });
      clear(result);
      result.append(resultView(r));
      const v = checkView(r);
      addAttempt(name, {
        date: new Date().toISOString(),
        source,
        passed: v.passed,
        summary: v.message,
      });
    } catch (e) {
      clear(result);
      // A compile error (400) still carries the check's JSON: diagnostics with the learner's lines.
      const body = e instanceof ApiError ? (e.body as CheckJson | null) : null;
      if (body && typeof body === "object" && body.compile) result.append(resultView(body));
      else
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
  const hintList = Array.isArray(ex.hints) ? ex.hints : localList(ex.hints);
  const hints = hintList.map((x, i) =>
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
    targetText(ex) ? h("p", { class: "callout" }, t("exercise.target"), " ", targetText(ex)) : null,
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
