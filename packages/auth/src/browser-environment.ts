/** The part of the Web Storage API the client uses to keep the app-mode session token. */
export interface SessionTokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A session-token storage kept in memory: for tests, servers and apps without `sessionStorage`.
 *
 * @example
 * const client = createAllauthClient({ baseUrl, clientType: "app", sessionTokenStorage: createMemorySessionTokenStorage() });
 */
export function createMemorySessionTokenStorage(initialEntries: Record<string, string> = {}): SessionTokenStorage {
  const entries = new Map(Object.entries(initialEntries));
  return {
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => {
      entries.set(key, value);
    },
    removeItem: (key) => {
      entries.delete(key);
    },
  };
}

/**
 * Reads one cookie's value from a `document.cookie` string.
 *
 * @example
 * readCookieValue("theme=dark; csrftoken=abc", "csrftoken"); // "abc"
 */
export function readCookieValue(cookieHeader: string, name: string): string | undefined {
  for (const pair of cookieHeader.split(";")) {
    const separatorIndex = pair.indexOf("=");
    if (separatorIndex === -1) continue;
    if (pair.slice(0, separatorIndex).trim() !== name) continue;
    const value = pair.slice(separatorIndex + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * Reads Django's `csrftoken` cookie from `document.cookie`, or gives undefined where there is no document.
 * Django rotates the token on login, so read it for every request rather than once.
 *
 * @example
 * readCsrfTokenFromDocumentCookie(); // "kXz…" in a browser, undefined in Node
 */
export function readCsrfTokenFromDocumentCookie(cookieName = "csrftoken"): string | undefined {
  const documentLike = (globalThis as { document?: { cookie?: string } }).document;
  if (typeof documentLike?.cookie !== "string") return undefined;
  return readCookieValue(documentLike.cookie, cookieName);
}

/** `globalThis.sessionStorage` when it exists and works (Safari's private mode and sandboxed frames may throw). */
export function findBrowserSessionStorage(): SessionTokenStorage | undefined {
  try {
    const storage = (globalThis as { sessionStorage?: SessionTokenStorage }).sessionStorage;
    return storage ?? undefined;
  } catch {
    return undefined;
  }
}
