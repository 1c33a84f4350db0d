// Attempts at an exercise, kept in the browser's localStorage (nothing leaves the machine).
export interface Attempt {
  date: string;
  source: string;
  passed: boolean;
  summary: string;
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
  store?.setItem(key(name), JSON.stringify(list));
  return list;
}

export function draftKey(name: string): string {
  return `memlab.draft.${name}`;
}
