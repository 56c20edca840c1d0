/** What the shell touches: the page's document and window, and the transport of its two calls. */
export interface SiteShellEnvironment {
  document: Document;
  window: Window & typeof globalThis;
  /** The transport; the page passes the window's, tests a stand-in. */
  fetch: typeof fetch;
}

/** A new element with its attributes and, when given, its text. */
export function element(document: Document, tag: string, attributes: Record<string, string>, text?: string): HTMLElement {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  if (text !== undefined) created.textContent = text;
  return created;
}

export function readStorage(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(storage: Storage | undefined, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Private browsing may refuse storage: the choice then lasts for this page only.
  }
}

export function safeLocalStorage(window: SiteShellEnvironment["window"]): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
