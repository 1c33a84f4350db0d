// The server's token: read once from the page URL (?token=...), kept in sessionStorage, removed
// from the address bar so that it does not end up in bookmarks or screenshots.
export const TOKEN_KEY = "memlab.token";

export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Takes the token out of `href` if present; returns the URL without it (or null if unchanged). */
export function takeToken(href: string, store: TokenStore): string | null {
  const url = new URL(href);
  const token = url.searchParams.get("token");
  if (token === null) return null;
  if (/^[\x21-\x7e]{1,256}$/.test(token)) store.setItem(TOKEN_KEY, token);
  url.searchParams.delete("token");
  return url.toString();
}

export function getToken(store: TokenStore): string | null {
  return store.getItem(TOKEN_KEY);
}

/** Headers for a request that needs the token (none when it is unknown: the server refuses). */
export function tokenHeaders(store: TokenStore): Record<string, string> {
  const token = getToken(store);
  return token ? { "X-Memlab-Token": token } : {};
}
