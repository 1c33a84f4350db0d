// The exercise page's attempts: the server's list (GET /api/attempts?exercise=), each openable
// (GET /api/attempts/<id>: its source back into the editor, its result shown). Where the server
// keeps no attempts (404: an older memlab serve) the browser's own list as before; where the
// server cannot be reached, the cached copy of its list.
import type { App } from "../app";
import { apiGet, ApiError } from "../api";
import { attempts, cacheServerList, cacheSource, type Attempt } from "../attempts";
import type { AttemptJson } from "../classlab";
import { when } from "../classlab";
import type { CheckJson } from "../check";
import { clear, h } from "../dom";
import { lang, t } from "../i18n";

export interface History {
  el: HTMLElement;
  /** Whether the server keeps the attempts (else the page adds each check to the local list). */
  serverKeeps(): boolean;
  refresh(): Promise<void>;
  /** Opens attempt `id` (a link from the class view: #/exercise/<name>?attempt=<id>). */
  openId(id: string): Promise<void>;
}

export function historyBox(
  app: App,
  name: string,
  open: (source: string, result: CheckJson | null, a: Attempt) => void,
): History {
  const list = h("ul", { class: "attempts", "data-testid": "attempts" });
  const note = h("p", { class: "muted small", "data-testid": "attempts-note" });
  const el = h("div", { class: "history" }, list, note);
  let keeps = false;
  const teacher = app.me?.role === "teacher";

  const openOne = async (a: Attempt) => {
    if (!a.id) return open(a.source, null, a);
    try {
      const full = await apiGet<AttemptJson>(`api/attempts/${encodeURIComponent(a.id)}`);
      const source = full.source ?? "";
      cacheSource(name, a.id, source);
      const r = full.result;
      open(source, r && typeof r === "object" ? (r as CheckJson) : null, a);
    } catch (e) {
      if (a.source) open(a.source, null, a);
      note.textContent = t("history.open_failed", { message: (e as Error).message });
    }
  };

  const draw = (items: Attempt[], learners: Map<string, string>) => {
    clear(list);
    if (!items.length) list.append(h("li", { class: "muted" }, t("history.none")));
    for (const a of items.slice(0, 12)) {
      const who = a.id && teacher ? learners.get(a.id) : undefined;
      list.append(
        h(
          "li",
          { class: a.passed ? "ok" : "bad", "data-attempt": a.id ?? "" },
          h(
            "button",
            {
              type: "button",
              class: "link",
              "data-testid": "attempt-open",
              disabled: !a.id && !a.source,
              onclick: () => void openOne(a),
            },
            when(a.date, lang()),
          ),
          who ? ` · ${who}` : "",
          ` — ${a.passed ? "✓" : "✗"} ${a.summary}`,
        ),
      );
    }
  };

  return {
    el,
    serverKeeps: () => keeps,
    openId: (id: string) =>
      openOne(
        attempts(name).find((a) => a.id === id) ?? {
          id,
          date: "",
          source: "",
          passed: false,
          summary: "",
        },
      ),
    async refresh() {
      note.textContent = "";
      try {
        const raw = await apiGet<AttemptJson[]>(
          `api/attempts?exercise=${encodeURIComponent(name)}`,
        );
        const server = Array.isArray(raw) ? raw : [];
        keeps = true;
        const learners = new Map(server.map((a) => [String(a.id), a.learner ?? ""]));
        draw(cacheServerList(name, server), learners);
      } catch (e) {
        const gone = e instanceof ApiError && (e.status === 404 || e.status === 405);
        keeps = false;
        draw(attempts(name), new Map());
        note.textContent = gone
          ? t("history.local")
          : t("history.cached", { message: (e as Error).message });
      }
    },
  };
}
