export type AnalyticsConsentDecision = "undecided" | "granted" | "declined";

export const ANALYTICS_CONSENT_STORAGE_KEY = "analytics-consent";

export function readAnalyticsConsent(storage: Pick<Storage, "getItem"> | undefined = safeStorage()): AnalyticsConsentDecision {
  const value = storage?.getItem(ANALYTICS_CONSENT_STORAGE_KEY);
  return value === "granted" || value === "declined" ? value : "undecided";
}

export function storeAnalyticsConsent(decision: "granted" | "declined", storage: Pick<Storage, "setItem"> | undefined = safeStorage()): void {
  storage?.setItem(ANALYTICS_CONSENT_STORAGE_KEY, decision);
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
