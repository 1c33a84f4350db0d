// #/exercise/<name> : statement, CodeMirror editor with the starter, check (queued on the server:
// its place and wait until the result; pages/checking.ts), the result with the lesson's plots and
// the learner's kernel among the variants, the attempts kept on the server (pages/history.ts), and
// the quiz (answers computed by memlab's models on the server).
import type { App } from "../app";
import { apiGet } from "../api";
import { addAttempt, draftKey } from "../attempts";
import { clear, h } from "../dom";
import { lang, num, t } from "../i18n";
import { renderMarkdown } from "../markdown";
import { createEditor, showLine } from "../editor";
import { checkView, submitCheck } from "../check";
import { field, loc } from "./exercises";
import { historyBox } from "./history";
import { checkDeps, checkError, outcomeView, resultView } from "./checking";

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

export async function render(
  root: HTMLElement,
  app: App,
  name: string,
): Promise<void | (() => void)> {
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
  const view = createEditor(editorBox, source, (text) => {
    source = text;
    try {
      localStorage.setItem(draftKey(name), text);
    } catch {
      /* ignore */
    }
  });
  const setSource = (text: string) =>
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  const history = historyBox(app, name, (text, r, a) => {
    if (text) setSource(text);
    clear(result);
    result.append(
      h(
        "p",
        { class: "muted", "data-testid": "attempt-shown" },
        t("history.shown", { id: a.id ?? "" }),
      ),
      r ? resultView(r, (n) => showLine(view, n)) : h("p", { class: "muted" }, a.summary),
    );
  });
  let left = false;
  const checkBtn = h(
    "button",
    { type: "button", class: "primary", "data-testid": "check" },
    t("exercise.check"),
  );
  checkBtn.addEventListener("click", async () => {
    checkBtn.disabled = true;
    clear(result);
    const line = h("p", { class: "muted queue-status", "data-testid": "check-status" });
    line.textContent = t("exercise.checking");
    result.append(line);
    let summary = "";
    let passed = false;
    try {
      const out = await submitCheck(
        name,
        { source },
        checkDeps(line, () => left),
      );
      clear(result);
      result.append(outcomeView(out, (n) => showLine(view, n)));
      passed = out.result?.status === "passed";
      summary = out.result ? checkView(out.result).message : t(`check.state.${out.state}`);
    } catch (e) {
      clear(result);
      summary = checkError(e);
      result.append(h("p", { class: "error", "data-testid": "check-error" }, summary));
    } finally {
      checkBtn.disabled = false;
      if (!history.serverKeeps())
        addAttempt(name, { date: new Date().toISOString(), source, passed, summary });
      if (!left) await history.refresh();
    }
  });
  const reset = h("button", { type: "button" }, t("exercise.reset"));
  reset.addEventListener("click", () => setSource(starter));
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
    history.el,
    ex.quiz?.length ? quiz(ex.quiz) : null,
  ];
  root.append(...parts.filter((x): x is HTMLElement => x !== null));
  await history.refresh();
  const wanted = new URLSearchParams(location.hash.split("?")[1] ?? "").get("attempt");
  if (wanted) await history.openId(wanted);
  return () => {
    left = true;
  };
}
