// #/exercises : the exercise catalogue (GET /api/exercises), with the attempts stored here.
import type { App } from "../app";
import { apiGet } from "../api";
import { h } from "../dom";
import { lang, t } from "../i18n";
import { attempts } from "../attempts";

export const title = "exercises.title";

export interface ExerciseSummary {
  name: string;
  lesson?: string;
  title?: string | Record<string, string>;
  target?: string | Record<string, string>;
  [k: string]: unknown;
}

/** A text that may be given per language ({de, en}) or as one string. */
export function loc(x: unknown): string {
  if (typeof x === "string") return x;
  if (x && typeof x === "object") {
    const o = x as Record<string, string>;
    return o[lang()] ?? o.en ?? Object.values(o)[0] ?? "";
  }
  return "";
}

export function field(o: Record<string, unknown>, key: string): string {
  return loc(o[key] ?? o[`${key}_${lang()}`] ?? o[`${key}_en`]);
}

export async function render(root: HTMLElement, app: App): Promise<void> {
  root.append(h("h1", {}, t("exercises.title")), h("p", { class: "lead" }, t("exercises.lead")));
  if (app.mode !== "serve") {
    root.append(h("p", { class: "muted" }, t("exercises.report_mode")));
    return;
  }
  let list: ExerciseSummary[];
  try {
    const raw = await apiGet<ExerciseSummary[] | { exercises: ExerciseSummary[] }>("api/exercises");
    list = Array.isArray(raw) ? raw : raw.exercises;
  } catch (e) {
    root.append(
      h(
        "p",
        { class: "muted", "data-testid": "exercises-error" },
        t("exercises.unavailable", { message: String((e as Error).message ?? e) }),
      ),
    );
    return;
  }
  const byLesson = new Map<string, ExerciseSummary[]>();
  for (const e of list) {
    const k = e.lesson ?? "";
    byLesson.set(k, [...(byLesson.get(k) ?? []), e]);
  }
  for (const [lesson, items] of byLesson) {
    root.append(
      h("h2", {}, lesson || t("exercises.other")),
      h(
        "ul",
        { class: "cards" },
        items.map((e) => {
          const tries = attempts(e.name);
          const best = tries.some((a) => a.passed);
          return h(
            "li",
            { class: best ? "done" : "" },
            h("a", { href: `#/exercise/${e.name}` }, field(e, "title") || e.name),
            h("div", { class: "muted" }, field(e, "target")),
            tries.length
              ? h(
                  "div",
                  { class: "muted" },
                  t("exercises.attempts", { n: tries.length }) + (best ? " ✓" : ""),
                )
              : null,
          );
        }),
      ),
    );
  }
}
