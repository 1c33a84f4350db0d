// The server's token: read once from the page URL (?token=... as `memlab serve` prints it, or
// #token=... as a class lab's sign-in link carries it), kept in sessionStorage, removed from the
// address bar so that it does not end up in bookmarks or screenshots. A learner who joined a class
// (#/join) keeps their token in localStorage too, so that the lab still knows them tomorrow; it
// expires on the server (expires_at) and "sign out" forgets it.
export const TOKEN_KEY = "memlab.token";
export const CLASS_TOKEN_KEY = "memlab.class.token";

export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem?(key: string): void;
}

const VALID = /^[\x21-\x7e]{1,256}$/;

/**
 * Takes the token out of `href` (?token=X, or a hash #token=X[&rest]) if present; returns the URL
 * without it (a hash token leaves "#/" or "#<rest>"), or null if there was none.
 */
export function takeToken(href: string, store: TokenStore): string | null {
  const url = new URL(href);
  const token = url.searchParams.get("token");
  const hash = /^#token=([^&]*)(?:&(.*))?$/.exec(url.hash);
  if (token === null && !hash) return null;
  if (token !== null) {
    if (VALID.test(token)) store.setItem(TOKEN_KEY, token);
    url.searchParams.delete("token");
  }
  if (hash) {
    let t = "";
    try {
      t = decodeURIComponent(hash[1] ?? "");
    } catch {
      t = "";
    }
    if (VALID.test(t)) store.setItem(TOKEN_KEY, t);
    url.hash = hash[2] ? `#${hash[2]}` : "#/";
  }
  return url.toString();
}

/** The token of this tab (from the URL), else a class token kept from #/join. */
export function getToken(store: TokenStore, kept: TokenStore | null = null): string | null {
  return store.getItem(TOKEN_KEY) ?? kept?.getItem(CLASS_TOKEN_KEY) ?? null;
}

/** After #/join: this tab uses the token, and `kept` (localStorage) remembers it. */
export function saveToken(token: string, store: TokenStore, kept: TokenStore | null): boolean {
  if (!VALID.test(token)) return false;
  store.setItem(TOKEN_KEY, token);
  kept?.setItem(CLASS_TOKEN_KEY, token);
  return true;
}

/** Sign out: forget the token of this tab and the kept one. */
export function forgetToken(store: TokenStore, kept: TokenStore | null): void {
  store.removeItem?.(TOKEN_KEY);
  kept?.removeItem?.(CLASS_TOKEN_KEY);
}

/** Headers for a request that needs the token (none when it is unknown: the server refuses). */
export function tokenHeaders(
  store: TokenStore,
  kept: TokenStore | null = null,
): Record<string, string> {
  const token = getToken(store, kept);
  return token ? { "X-Memlab-Token": token } : {};
}

function storage(which: "session" | "local"): Storage | null {
  try {
    return which === "session" ? sessionStorage : localStorage;
  } catch {
    return null;
  }
}

/** The browser's stores: this tab's (sessionStorage) and the kept one (localStorage). */
export function browserStores(): { store: TokenStore | null; kept: TokenStore | null } {
  return { store: storage("session"), kept: storage("local") };
}
