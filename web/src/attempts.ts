// Attempts at an exercise. The server keeps them (GET /api/attempts?exercise=, the class lab and
// a memlab serve that stores checks); the browser's localStorage is only a cache of that list,
// and the whole history where the server keeps none (an older memlab serve).
import type { AttemptJson } from "./classlab";

export interface Attempt {
  date: string;
  source: string;
  passed: boolean;
  summary: string;
  /** The server's attempt id (absent: kept in this browser only). */
  id?: string;
  status?: string;
}

const key = (name: string) => `memlab.attempts.${name}`;
const MAX = 20;

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export function attempts(name: string, store: Storage | null = storage()): Attempt[] {
  try {
    const v = JSON.parse(store?.getItem(key(name)) ?? "[]") as unknown;
    return Array.isArray(v) ? (v as Attempt[]) : [];
  } catch {
    return [];
  }
}

export function addAttempt(name: string, a: Attempt, store: Storage | null = storage()): Attempt[] {
  const list = [a, ...attempts(name, store)].slice(0, MAX);
  try {
    store?.setItem(key(name), JSON.stringify(list));
  } catch {
    /* a full storage: the list is still shown */
  }
  return list;
}

/** The server's attempt as the list shows it (newest first is the server's order). */
export function fromServer(a: AttemptJson): Attempt {
  return {
    id: String(a.id),
    date: a.created_at,
    source: a.source ?? "",
    passed: a.status === "passed",
    summary: a.message ?? a.status,
    status: a.status,
  };
}

/**
 * The server's list replaces the cache; the sources the cache already holds for the same ids are
 * kept (the list carries none), so an attempt opens from the cache when the server is away.
 */
export function cacheServerList(
  name: string,
  list: AttemptJson[],
  store: Storage | null = storage(),
): Attempt[] {
  const known = new Map(
    attempts(name, store)
      .filter((a) => a.id)
      .map((a) => [a.id, a.source]),
  );
  const merged = [...list]
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .map(fromServer)
    .map((a) => ({ ...a, source: a.source || known.get(a.id) || "" }))
    .slice(0, MAX);
  try {
    store?.setItem(key(name), JSON.stringify(merged));
  } catch {
    /* see addAttempt */
  }
  return merged;
}

/** After opening an attempt: its source into the cache. */
export function cacheSource(
  name: string,
  id: string,
  source: string,
  store: Storage | null = storage(),
): void {
  const list = attempts(name, store).map((a) => (a.id === id ? { ...a, source } : a));
  try {
    store?.setItem(key(name), JSON.stringify(list));
  } catch {
    /* see addAttempt */
  }
}

export function draftKey(name: string): string {
  return `memlab.draft.${name}`;
}
