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

export function initLanguage(): void {
  let wanted: string | null = null;
  try {
    wanted = localStorage.getItem(STORAGE_KEY);
  } catch {
    wanted = null;
  }
  if (!wanted || !catalogs[wanted]) {
    const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
    wanted = catalogs[nav] ? nav : "en";
  }
  current = wanted;
  document.documentElement.lang = current;
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
