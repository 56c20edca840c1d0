import { useEffect, useRef, type ReactNode } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { LOGIN_PATH, LOGIN_REDIRECT_PATH, redirectForAuthChange } from "../flow-paths.ts";
import { useAuthStatus, useAuthStore, useAuthStoreApi } from "./auth-provider.tsx";

export interface ProtectedRouteProps {
  children?: ReactNode;
  /**
   * Called with the asked-for path (pathname + query) when the user is signed out; open the login modal here.
   * Without it the route navigates to `/account/login?next={path}`.
   */
  onUnauthenticated?: (path: string) => void;
  /** Rendered while the status loads, and while signed out when `onUnauthenticated` handles it. Defaults to nothing. */
  fallback?: ReactNode;
  loginPath?: string;
}

/**
 * Renders its children for signed-in users only (spec §2.1).
 *
 * @example
 * <Route path="/dashboard" element={<ProtectedRoute onUnauthenticated={openLoginModal}><Dashboard /></ProtectedRoute>} />
 */
export function ProtectedRoute({ children, onUnauthenticated, fallback = null, loginPath = LOGIN_PATH }: ProtectedRouteProps) {
  const location = useLocation();
  const { loadState, isAuthenticated } = useAuthStatus();
  const askedForPath = location.pathname + location.search;
  const isSignedOut = loadState === "ready" && !isAuthenticated;
  const onUnauthenticatedReference = useRef(onUnauthenticated);
  onUnauthenticatedReference.current = onUnauthenticated;
  const handsOffToCaller = onUnauthenticated !== undefined;

  useEffect(() => {
    if (isSignedOut && handsOffToCaller) onUnauthenticatedReference.current?.(askedForPath);
  }, [isSignedOut, handsOffToCaller, askedForPath]);

  if (loadState !== "ready") return fallback;
  if (isAuthenticated) return children;
  if (handsOffToCaller) return fallback;
  return <Navigate to={`${loginPath}?next=${encodeURIComponent(askedForPath)}`} replace />;
}

export interface AnonymousRouteProps {
  children?: ReactNode;
  /** Rendered while the status loads. Defaults to nothing. */
  fallback?: ReactNode;
  /** Where signed-in users go. Defaults to `/dashboard`. */
  redirectTo?: string;
}

/**
 * Renders its children for signed-out users only; signed-in users go to /dashboard (spec §2.1).
 *
 * @example
 * <Route path="/account/login" element={<AnonymousRoute><LoginPage /></AnonymousRoute>} />
 */
export function AnonymousRoute({ children, fallback = null, redirectTo = LOGIN_REDIRECT_PATH }: AnonymousRouteProps) {
  const { loadState, isAuthenticated } = useAuthStatus();
  if (loadState !== "ready") return fallback;
  if (isAuthenticated) return <Navigate to={redirectTo} replace />;
  return children;
}

export interface AuthChangeRedirectorProps {
  /** Decide the target yourself (e.g. stay put while the login modal handles a login); defaults to spec §2.1. */
  resolveRedirect?: typeof redirectForAuthChange;
}

/**
 * Navigates after each authentication change per spec §2.1 (`redirectForAuthChange`). Render it once, inside the
 * router and the `AuthProvider`.
 *
 * @example
 * <AuthProvider client={client} gate="none"><AuthChangeRedirector /><Outlet /></AuthProvider>
 */
export function AuthChangeRedirector({ resolveRedirect = redirectForAuthChange }: AuthChangeRedirectorProps) {
  const store = useAuthStoreApi();
  const navigate = useNavigate();
  const location = useLocation();
  const authChangeCount = useAuthStore((state) => state.authChangeCount);
  const handledCount = useRef(authChangeCount);
  const latest = useRef({ location, resolveRedirect });
  latest.current = { location, resolveRedirect };

  useEffect(() => {
    if (authChangeCount === handledCount.current) return;
    handledCount.current = authChangeCount;
    const { lastEvent, authenticationResponse } = store.getState();
    const { location: currentLocation, resolveRedirect: resolve } = latest.current;
    const target = resolve(lastEvent, {
      currentPath: currentLocation.pathname + currentLocation.search,
      nextParameter: new URLSearchParams(currentLocation.search).get("next"),
      response: authenticationResponse,
    });
    if (target !== null) void navigate(target);
  }, [authChangeCount, navigate, store]);

  return null;
}
