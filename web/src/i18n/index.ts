// Message catalogs: every file src/i18n/<lang>.json is a language (another language = a new file).
const modules = import.meta.glob<Record<string, string>>("./*.json", {
  eager: true,
  import: "default",
});

export const catalogs: Record<string, Record<string, string>> = {};
for (const [path, messages] of Object.entries(modules)) {
  catalogs[path.replace(/^\.\//, "").replace(/\.json$/, "")] = messages;
}

const STORAGE_KEY = "memlab.lang";
let current = "en";
const listeners: (() => void)[] = [];

export function languages(): string[] {
  return Object.keys(catalogs).sort();
}

export function lang(): string {
  return current;
}

/**
 * The language to start in: `?lang=xx` in the URL (a link into the lab or a report in one
 * language; remembered), else the stored choice, else the report's own (`memlab report --lang`,
 * data-lang on its data block), else the browser's languages (zh-CN, zh-TW, de-AT, ... by their
 * first part), else English.
 */
export function pickLanguage(
  query: string,
  stored: string | null,
  browser: readonly string[],
  report: string | null = null,
): string {
  const fromUrl = new URLSearchParams(query).get("lang")?.toLowerCase();
  if (fromUrl && catalogs[fromUrl]) return fromUrl;
  if (stored && catalogs[stored]) return stored;
  if (report && catalogs[report]) return report;
  for (const b of browser) {
    const l = (b || "").slice(0, 2).toLowerCase();
    if (catalogs[l]) return l;
  }
  return "en";
}

export function initLanguage(): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  const browser = navigator.languages?.length ? navigator.languages : [navigator.language];
  const report = document.getElementById("memlab-data")?.getAttribute("data-lang") ?? null;
  current = pickLanguage(location.search, stored, browser, report);
  document.documentElement.lang = current;
  if (current !== stored && new URLSearchParams(location.search).has("lang")) {
    try {
      localStorage.setItem(STORAGE_KEY, current);
    } catch {
      /* see setLanguage */
    }
  }
}

export function setLanguage(l: string): void {
  if (!catalogs[l] || l === current) return;
  current = l;
  document.documentElement.lang = l;
  try {
    localStorage.setItem(STORAGE_KEY, l);
  } catch {
    /* storage may be unavailable (file://, private mode): the choice lasts for this page */
  }
  for (const f of listeners) f();
}

export function onLanguageChange(f: () => void): void {
  listeners.push(f);
}

/** Whether the catalogs have `key` (the current language or English). */
export function has(key: string): boolean {
  return key in (catalogs[current] ?? {}) || key in (catalogs.en ?? {});
}

/** The message `key` in the current language, {name} placeholders filled from vars. */
export function t(key: string, vars: Record<string, string | number> = {}): string {
  const text = catalogs[current]?.[key] ?? catalogs.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** Number formatting in the current language (1.82 / 1,82). */
export function num(x: number, digits = 2): string {
  return x.toLocaleString(current, { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function fixed(x: number, digits: number): string {
  return x.toLocaleString(current, {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  });
}

export function pct(fraction: number, digits = 1): string {
  return `${num(100 * fraction, digits)} %`;
}
