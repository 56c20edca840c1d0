import { useState, type ReactNode } from "react";
import { Navigate } from "react-router";
import { useAuthStatus } from "@atelier/auth/react";
import { LOGIN_REDIRECT_PATH } from "../lib/auth-routes.ts";

/**
 * The page of a sign-in step (an e-mailed code, a second factor). Reached signed in, it sends the user to the
 * dashboard as AnonymousRoute does. Signed in on this very page, it shows nothing and leaves the navigation
 * to the site's redirector, which brings a sign-in begun in the login modal back to the page the modal was opened on:
 * a redirect of its own would race that return (issue 13).
 *
 * @example
 * <SignInStepRoute><CodeStepPage step="authenticate" type="totp" /></SignInStepRoute>
 */
export function SignInStepRoute({ children }: { children: ReactNode }) {
  const { loadState, isAuthenticated } = useAuthStatus();
  const [arrival, setArrival] = useState<"signed-in" | "signed-out" | "unknown">("unknown");
  if (loadState !== "ready") return null;
  if (arrival === "unknown") setArrival(isAuthenticated ? "signed-in" : "signed-out");
  if (!isAuthenticated) return children;
  return arrival === "signed-out" ? null : <Navigate to={LOGIN_REDIRECT_PATH} replace />;
}
