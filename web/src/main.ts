// Entry point: mode detection, token, language, models, then the hash router.
import "./style.css";
import { h, clear } from "./dom";
import { initLanguage, languages, lang, onLanguageChange, setLanguage, t } from "./i18n";
import { detectMode, reportData } from "./mode";
import { lazyModels } from "./models";
import { browserStores, forgetToken, getToken, takeToken } from "./token";
import { makeApp, loadDevice, loadMe, type App } from "./app";
import { navFor } from "./classlab";
import { HOME, routes, parseHash, type Page } from "./router";
import { EXPLAINERS } from "./claims";
import { claimsAside } from "./pages/claims";
import { KNOWN_SCHEMAS, SchemaError } from "./records";

function takeTokenFromUrl(): void {
  try {
    // A sign-in link (#token=...) replaces a class token kept from an earlier #/join.
    const cleaned = takeToken(location.href, sessionStorage);
    if (cleaned) history.replaceState(null, "", cleaned);
  } catch {
    /* no sessionStorage (file://): report mode needs no token */
  }
}

const NAV: [string, string][] = [
  ["#/summary", "nav.summary"],
  ["#/", "nav.hierarchy"],
  ["#/coalescing", "nav.coalescing"],
  ["#/banks", "nav.banks"],
  ["#/sync", "nav.sync"],
  ["#/alloc", "nav.alloc"],
  ["#/streams", "nav.streams"],
  ["#/claims", "nav.claims"],
  ["#/results", "nav.results"],
  ["#/compare", "nav.compare"],
  ["#/run", "nav.run"],
  ["#/exercises", "nav.exercises"],
  ["#/queue", "nav.queue"],
  ["#/class", "nav.class"],
  ["#/join", "nav.join"],
];
const ONE_PERSON = NAV.slice(0, 12).map(([href]) => href);
const SERVE_ONLY = new Set(["#/run", "#/exercises"]);

/** The links of this role (the one-person lab: as before; signed out of a class: + join). */
function navLinks(app: App): [string, string][] {
  const shown = [
    ...(app.mode === "serve"
      ? navFor(ONE_PERSON, app.me)
      : ONE_PERSON.filter((h) => !SERVE_ONLY.has(h))),
  ];
  if (app.signedOut) shown.push("#/join");
  return NAV.filter(([href]) => shown.includes(href));
}
/** The signed-in person (a class lab): name, role, sign out. */
function whoBox(app: App): HTMLElement | null {
  const me = app.me;
  if (!me || me.role === "owner") return null;
  const out = h(
    "button",
    {
      type: "button",
      class: "link",
      "data-testid": "sign-out",
      onclick: () => {
        const { store, kept } = browserStores();
        if (store) forgetToken(store, kept);
        location.hash = "#/join";
        location.reload();
      },
    },
    t("class.sign_out"),
  );
  return h(
    "div",
    { class: "who", "data-testid": "who", "data-role": me.role },
    `${me.name ?? ""} · ${t(`class.role.${me.role}`)}`,
    " ",
    out,
  );
}

/** Signed out of a class lab: why, and where to join. */
function signedOutBanner(app: App): HTMLElement | null {
  if (!app.signedOut || location.hash.startsWith("#/join")) return null;
  const { store, kept } = browserStores();
  const had = store ? getToken(store, kept) !== null : false;
  return h(
    "p",
    { class: "callout banner", "data-testid": "signed-out" },
    t(had ? "class.token_refused" : "class.not_signed_in"),
    " ",
    h("a", { href: "#/join" }, t("class.join_link")),
  );
}

function header(app: App): HTMLElement {
  const bare = location.hash.replace(/^#/, "") === "";
  const current =
    bare && app.mode === "report" ? "#/summary" : "#" + (location.hash.replace(/^#/, "") || "/");
  const nav = h(
    "nav",
    { class: "nav" },
    navLinks(app).map(([href, key]) =>
      h(
        "a",
        {
          href,
          class: current === href || (href !== "#/" && current.startsWith(href)) ? "active" : null,
        },
        t(key),
      ),
    ),
  );
  const langs = h(
    "div",
    { class: "langs", role: "group", "aria-label": t("nav.language") },
    languages().map((l) =>
      h(
        "button",
        {
          type: "button",
          class: l === lang() ? "active" : null,
          "data-lang": l,
          onclick: () => setLanguage(l),
        },
        l.toUpperCase(),
      ),
    ),
  );
  const status = h(
    "div",
    { class: "status", "data-testid": "device-status" },
    app.mode === "report"
      ? t("status.report")
      : app.device
        ? t("status.device", { name: app.device.name })
        : t("status.nodevice"),
  );
  return h(
    "header",
    { class: "top" },
    h("a", { class: "brand", href: "#/" }, "memlab"),
    nav,
    h("div", { class: "top-right" }, whoBox(app), status, langs),
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  takeTokenFromUrl();
  initLanguage();
  const mode = detectMode();
  const report = mode === "report" ? reportData() : { runs: [] };
  const root = document.getElementById("app")!;
  root.append(h("p", { class: "loading" }, "…"));
  // The models load in the background: the page renders at once, figures follow when ready.
  const app = makeApp(mode, lazyModels(mode), report);
  await Promise.all([loadDevice(app), loadMe(app)]);

  let renderId = 0;
  let cleanup: (() => void) | void = undefined;
  async function render(): Promise<void> {
    const id = ++renderId;
    if (cleanup) cleanup();
    cleanup = undefined;
    // A report opens on its run's summary; the server on the hierarchy table.
    const bare = location.hash === "" || location.hash === "#";
    const { page, arg } =
      bare && app.mode === "report" ? { page: "summary", arg: "" } : parseHash(location.hash);
    const fallback: Page = routes[app.mode === "report" ? "summary" : HOME];
    const p = routes[page] ?? fallback;
    document.title = `memlab · ${t(p.title)}`;
    const main = h("main", { class: "page", "data-page": page || HOME });
    clear(root);
    root.append(header(app), main);
    const banner = signedOutBanner(app);
    if (banner) main.append(banner);
    try {
      cleanup = await p.render(main, app, arg);
      // Beside each explainer of seed 001: the course's claims about it and their verdicts
      // (in the background: the explainer is interactive before they arrive).
      const explainer = routes[page] === p ? page : "";
      if (EXPLAINERS.includes(explainer)) {
        void claimsAside(app, explainer).then((aside) => {
          if (aside && id === renderId) main.append(aside);
        });
      }
    } catch (e) {
      if (id !== renderId) return;
      main.append(
        e instanceof SchemaError
          ? h(
              "p",
              { class: "error", "data-testid": "schema-error" },
              t("error.schema", {
                version: JSON.stringify(e.version),
                known: KNOWN_SCHEMAS.join(", "),
              }),
            )
          : h("p", { class: "error" }, t("error.page", { message: String(e) })),
      );
      console.warn(e);
    }
    if (id === renderId) document.body.dataset.ready = "1";
  }
  // #/join signed someone in: the header (role, navigation) again, the page stays.
  window.addEventListener("memlab:who", () => {
    root.querySelector("header.top")?.replaceWith(header(app));
  });
  window.addEventListener("hashchange", () => {
    document.body.dataset.ready = "";
    void render();
  });
  onLanguageChange(() => {
    document.body.dataset.ready = "";
    void render();
  });
  await render();
  document.body.dataset.interactiveMs = String(Math.round(performance.now() - started));
}

void main();
