import type { ReactNode } from "react";
import { useAuthStatus } from "@atelier/auth/react";

/**
 * A route's `HydrateFallback` behind the same guard as its page (`ProtectedRoute` or `AnonymousRoute`): the placeholder
 * for the visitors the page is for, nothing for the others. The page itself opens the login modal or redirects once
 * its loader is done; the fallback must not do it a second time.
 *
 * @example
 * export function HydrateFallback() {
 *   return <GuardedLoading shownTo="signed-in"><p>Loading your sessions…</p></GuardedLoading>;
 * }
 */
export function GuardedLoading({ shownTo, children }: { shownTo: "signed-in" | "signed-out"; children: ReactNode }) {
  const { loadState, isAuthenticated } = useAuthStatus();
  if (loadState !== "ready") return null;
  return isAuthenticated === (shownTo === "signed-in") ? children : null;
}
