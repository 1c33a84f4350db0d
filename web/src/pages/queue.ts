// #/queue : the one GPU queue (GET /api/queue, every 2 s while the page is open): running job
// first, then the places; the learner's own jobs marked. The teacher (and the owner) can pause and
// resume it, reserve the GPU for a demonstration and release it, and cancel any job; a learner
// cancels their own.
import type { App } from "../app";
import { apiGet, apiPost, ApiError } from "../api";
import { mayControl, queueRows, when, type QueueJson, type QueueRow } from "../classlab";
import { etaText } from "../check";
import { clear, h } from "../dom";
import { lang, t } from "../i18n";

export const title = "queue.title";

const REFRESH_MS = 2000;

function row(r: QueueRow, act: (path: string) => void): HTMLElement {
  return h(
    "tr",
    { class: r.mine ? "mine" : null, "data-job": r.id, "data-state": r.state },
    h("td", { class: "num" }, r.place || (r.state === "running" ? "▶" : "")),
    h("td", {}, t(`queue.kind.${r.kind}`)),
    h("td", {}, r.mine ? h("strong", {}, t("queue.you")) : r.owner),
    h("td", {}, t(`run.state.${r.state}`)),
    h("td", { class: "num" }, r.eta_s !== null ? etaText(r.eta_s) : ""),
    h(
      "td",
      {},
      r.cancellable
        ? h(
            "button",
            {
              type: "button",
              "data-testid": "job-cancel",
              onclick: () => act(`api/jobs/${encodeURIComponent(r.id)}/cancel`),
            },
            t("check.cancel"),
          )
        : null,
    ),
  );
}

function controls(q: QueueJson, act: (path: string, body?: unknown) => void): HTMLElement {
  const minutes = h("input", {
    type: "number",
    min: 1,
    max: 240,
    step: 1,
    value: 10,
    "data-testid": "reserve-minutes",
    "aria-label": t("queue.minutes"),
  });
  return h(
    "div",
    { class: "controls", "data-testid": "queue-controls" },
    q.paused
      ? h(
          "button",
          { type: "button", "data-testid": "queue-resume", onclick: () => act("api/queue/resume") },
          t("queue.resume"),
        )
      : h(
          "button",
          { type: "button", "data-testid": "queue-pause", onclick: () => act("api/queue/pause") },
          t("queue.pause"),
        ),
    q.reserved
      ? h(
          "button",
          {
            type: "button",
            "data-testid": "queue-release",
            onclick: () => act("api/queue/release"),
          },
          t("queue.release"),
        )
      : h(
          "span",
          { class: "field inline" },
          h(
            "button",
            {
              type: "button",
              "data-testid": "queue-reserve",
              onclick: () => act("api/queue/reserve", { minutes: Number(minutes.value) }),
            },
            t("queue.reserve"),
          ),
          " ",
          minutes,
          " ",
          t("queue.minutes"),
        ),
  );
}

export async function render(root: HTMLElement, app: App): Promise<() => void> {
  root.append(h("h1", {}, t("queue.title")), h("p", { class: "lead" }, t("queue.lead")));
  const state = h("div", { "data-testid": "queue-state" });
  const error = h("p", { class: "error", "data-testid": "queue-error" });
  const body = h("div", {});
  root.append(state, error, body);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = "";

  const act = async (path: string, payload: unknown = {}) => {
    error.textContent = "";
    try {
      await apiPost(path, payload);
    } catch (e) {
      error.textContent =
        e instanceof ApiError && e.parameter
          ? t("check.error_parameter", { parameter: e.parameter, message: e.message })
          : String((e as Error).message ?? e);
    }
    await load();
  };

  const draw = (q: QueueJson) => {
    clear(state);
    clear(body);
    const flags = [
      q.paused
        ? h("p", { class: "callout", "data-testid": "queue-paused" }, t("queue.paused"))
        : null,
      q.reserved
        ? h(
            "p",
            { class: "callout", "data-testid": "queue-reserved" },
            t("queue.reserved", { by: q.reserved.by, until: when(q.reserved.until, lang()) }),
          )
        : null,
    ];
    state.append(...flags.filter((x) => x !== null));
    if (mayControl(app.me)) state.append(controls(q, (p, b) => void act(p, b)));
    const rows = queueRows(q, app.me);
    if (!rows.length) {
      body.append(h("p", { class: "muted", "data-testid": "queue-empty" }, t("queue.empty")));
      return;
    }
    body.append(
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "queue", "data-testid": "queue-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["place", "kind", "owner", "state", "eta", "action"].map((c) =>
                h("th", {}, t(`queue.col.${c}`)),
              ),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((r) => row(r, (p) => void act(p))),
          ),
        ),
      ),
    );
  };

  const load = async () => {
    if (timer) clearTimeout(timer);
    try {
      const q = await apiGet<QueueJson>("api/queue");
      // Redrawn only when it changed (the reserve field keeps what the teacher is typing).
      const text = JSON.stringify(q);
      if (text !== last) draw(q);
      last = text;
    } catch (e) {
      last = "";
      clear(body);
      body.append(
        h("p", { class: "muted" }, t("queue.unavailable", { message: (e as Error).message })),
      );
    }
    if (!stopped) timer = setTimeout(() => void load(), REFRESH_MS);
  };
  await load();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
