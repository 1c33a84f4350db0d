// #/join[/<code>] : a learner joins the class with its code and a name (POST /api/class/join, no
// token); the token is kept (token.ts) and the learner goes on to the exercises. Every refusal is
// one line: a wrong code (403), a name already taken (409), too many tries (429), bad input (400).
import type { App } from "../app";
import { apiPost, ApiError } from "../api";
import { loadMe } from "../app";
import { h } from "../dom";
import { t } from "../i18n";
import { browserStores, saveToken } from "../token";

export const title = "join.title";

interface Joined {
  token: string;
  name: string;
  learner_id: string | number;
  expires_at?: string;
}

/** The one line a refused join shows. */
export function joinError(e: unknown): string {
  if (!(e instanceof ApiError)) return t("join.error.network", { message: String(e) });
  if (e.status === 403) return t("join.error.code");
  if (e.status === 409) return t("join.error.name");
  if (e.status === 429)
    return e.retryAfter !== null
      ? t("join.error.rate_wait", { s: e.retryAfter })
      : t("join.error.rate");
  if (e.status === 404) return t("join.error.no_class");
  return e.parameter
    ? t("join.error.parameter", { parameter: e.parameter, message: e.message })
    : e.message;
}

export function render(root: HTMLElement, app: App, arg: string): void {
  root.append(h("h1", {}, t("join.title")), h("p", { class: "lead" }, t("join.lead")));
  if (app.me && app.me.role !== "owner")
    root.append(
      h(
        "p",
        { class: "callout", "data-testid": "joined-already" },
        t("join.already", { name: app.me.name ?? "" }),
        " ",
        h("a", { href: "#/exercises" }, t("join.go")),
      ),
    );
  const code = h("input", {
    type: "text",
    name: "code",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    maxlength: 64,
    required: true,
    value: arg,
    "data-testid": "join-code",
  });
  const name = h("input", {
    type: "text",
    name: "name",
    autocomplete: "nickname",
    maxlength: 64,
    required: true,
    "data-testid": "join-name",
  });
  const error = h("p", { class: "error", role: "alert", "data-testid": "join-error" });
  const submit = h(
    "button",
    { type: "submit", class: "primary", "data-testid": "join-submit" },
    t("join.submit"),
  );
  const form = h(
    "form",
    { class: "join-form", "data-testid": "join-form" },
    h("label", { class: "field" }, h("span", {}, t("join.code")), code),
    h("label", { class: "field" }, h("span", {}, t("join.name")), name),
    submit,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const r = await apiPost<Joined>(
        "api/class/join",
        { code: code.value.trim(), name: name.value.trim() },
        false,
      );
      const { store, kept } = browserStores();
      if (!store || !saveToken(r.token, store, kept)) throw new Error(t("join.error.storage"));
      await loadMe(app);
      window.dispatchEvent(new Event("memlab:who"));
      const link = `${location.origin}${location.pathname}#token=${encodeURIComponent(r.token)}`;
      form.replaceWith(
        h(
          "div",
          { class: "callout", "data-testid": "joined" },
          h("p", {}, t("join.welcome", { name: r.name })),
          h(
            "details",
            {},
            h("summary", {}, t("join.link")),
            h("p", { class: "muted small" }, t("join.link_note")),
            h("code", { class: "token-link", "data-testid": "join-link" }, link),
          ),
          h(
            "p",
            {},
            h(
              "a",
              { class: "button primary", href: "#/exercises", "data-testid": "join-go" },
              t("join.go"),
            ),
          ),
        ),
      );
    } catch (e) {
      error.textContent = joinError(e);
    } finally {
      submit.disabled = false;
    }
  });
  root.append(form, error);
}
