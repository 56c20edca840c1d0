import { useEffect, useRef, type ReactNode } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { defaultAuthRoutes, redirectForAuthChange, type AuthRoutes } from "../flow-paths.ts";
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
export function ProtectedRoute({ children, onUnauthenticated, fallback = null, loginPath = defaultAuthRoutes.login }: ProtectedRouteProps) {
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
  /** Where signed-in users go. Defaults to `defaultAuthRoutes.afterLogin` (`/`). */
  redirectTo?: string;
}

/**
 * Renders its children for signed-out users only; signed-in users go to `redirectTo`.
 *
 * @example
 * <Route path="/account/login" element={<AnonymousRoute><LoginPage /></AnonymousRoute>} />
 */
export function AnonymousRoute({ children, fallback = null, redirectTo = defaultAuthRoutes.afterLogin }: AnonymousRouteProps) {
  const { loadState, isAuthenticated } = useAuthStatus();
  if (loadState !== "ready") return fallback;
  if (isAuthenticated) return <Navigate to={redirectTo} replace />;
  return children;
}

export interface AuthChangeRedirectorProps {
  /** Your app's pages (after login, after logout, the flows'…); what you leave out is `defaultAuthRoutes`'. */
  routes?: Partial<AuthRoutes>;
  /** Decide the target yourself (e.g. stay put while a login modal handles a login); defaults to `redirectForAuthChange`. */
  resolveRedirect?: typeof redirectForAuthChange;
}

/**
 * Navigates after each authentication change (`redirectForAuthChange` with your `routes`). Render it once, inside the
 * router and the `AuthProvider`.
 *
 * @example
 * <AuthProvider client={client} gate="none"><AuthChangeRedirector routes={{ afterLogin: "/dashboard" }} /><Outlet /></AuthProvider>
 */
export function AuthChangeRedirector({ routes, resolveRedirect = redirectForAuthChange }: AuthChangeRedirectorProps) {
  const store = useAuthStoreApi();
  const navigate = useNavigate();
  const location = useLocation();
  const authChangeCount = useAuthStore((state) => state.authChangeCount);
  const handledCount = useRef(authChangeCount);
  const latest = useRef({ location, resolveRedirect, routes });
  latest.current = { location, resolveRedirect, routes };

  useEffect(() => {
    if (authChangeCount === handledCount.current) return;
    handledCount.current = authChangeCount;
    const { lastEvent, authenticationResponse } = store.getState();
    const { location: currentLocation, resolveRedirect: resolve, routes: currentRoutes } = latest.current;
    const target = resolve(lastEvent, {
      currentPath: currentLocation.pathname + currentLocation.search,
      nextParameter: new URLSearchParams(currentLocation.search).get("next"),
      response: authenticationResponse,
      ...(currentRoutes ? { routes: currentRoutes } : {}),
    });
    if (target !== null) void navigate(target);
  }, [authChangeCount, navigate, store]);

  return null;
}
