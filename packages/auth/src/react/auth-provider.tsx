import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import { getAuthenticationInfo, type AuthChangeEvent } from "../auth-change-events.ts";
import type { AllauthClient } from "../client.ts";
import type { AllauthConfiguration, AllauthUser, AuthenticationResponse, Flow } from "../schemas.ts";
import { createAuthStore, type AuthLoadState, type AuthStore, type AuthStoreState } from "./auth-store.ts";

interface AuthContextValue {
  client: AllauthClient;
  store: AuthStore;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The placeholders of spec §1. */
export const STARTING_TEXT = "Starting...";
export const LOADING_ERROR_TEXT = "Loading error!";

export interface AuthProviderProps {
  client: AllauthClient;
  /** A store you created (to use it outside React too); by default the provider creates one. */
  store?: AuthStore;
  children?: ReactNode;
  /** The configuration embedded in the served page (used only when the provider creates the store). */
  initialConfiguration?: AllauthConfiguration;
  /** The authentication status embedded in the served page (used only when the provider creates the store). */
  initialAuthenticationResponse?: AuthenticationResponse;
  /**
   * `"all"`: render 'Starting...' until configuration and status are in, 'Loading error!' if they fail (spec §1).
   * `"none"`: render children at once (prerendered pages); gate what needs the state with `AuthGate` or guards.
   */
  gate?: "all" | "none";
  /** Load the configuration and status on mount, even when embedded values were given. Defaults to true. */
  loadOnMount?: boolean;
  startingFallback?: ReactNode;
  loadingErrorFallback?: ReactNode;
}

/**
 * Gives its subtree the client and the authentication store, and loads configuration and status on mount.
 *
 * @example
 * <AuthProvider client={client} gate="none">
 *   <App />
 * </AuthProvider>
 */
export function AuthProvider({
  client,
  store,
  children,
  initialConfiguration,
  initialAuthenticationResponse,
  gate = "all",
  loadOnMount = true,
  startingFallback,
  loadingErrorFallback,
}: AuthProviderProps) {
  const [ownStore] = useState(
    () => store ?? createAuthStore(client, { initialConfiguration, initialAuthenticationResponse }),
  );
  const activeStore = store ?? ownStore;
  const value = useMemo(() => ({ client, store: activeStore }), [client, activeStore]);

  useEffect(() => {
    if (loadOnMount) void activeStore.getState().load();
  }, [activeStore, loadOnMount]);

  return (
    <AuthContext.Provider value={value}>
      {gate === "all" ? (
        <AuthGate startingFallback={startingFallback} loadingErrorFallback={loadingErrorFallback}>
          {children}
        </AuthGate>
      ) : (
        children
      )}
    </AuthContext.Provider>
  );
}

export interface AuthGateProps {
  children?: ReactNode;
  startingFallback?: ReactNode;
  loadingErrorFallback?: ReactNode;
}

/**
 * Renders its children once configuration and status are loaded; 'Starting...' before, 'Loading error!' on failure.
 *
 * @example
 * <AuthGate><AccountMenu /></AuthGate>
 */
export function AuthGate({ children, startingFallback, loadingErrorFallback }: AuthGateProps) {
  const loadState = useAuthStore((state) => state.loadState);
  switch (loadState) {
    case "ready":
      return children;
    case "loading":
      return startingFallback ?? (
        <div role="status" data-state="starting">
          {STARTING_TEXT}
        </div>
      );
    case "error":
      return loadingErrorFallback ?? (
        <div role="alert" data-state="loading-error">
          {LOADING_ERROR_TEXT}
        </div>
      );
    default:
      return loadState satisfies never;
  }
}

function useAuthContext(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error("No auth client set, use AuthProvider to set one");
  return value;
}

/**
 * The allauth client given to `AuthProvider`.
 *
 * @example
 * const client = useAuthClient();
 * const onSubmit = () => client.login({ email, password });
 */
export function useAuthClient(): AllauthClient {
  return useAuthContext().client;
}

/**
 * A slice of the authentication store; re-renders only when the slice changes.
 *
 * @example
 * const loadState = useAuthStore((state) => state.loadState);
 */
export function useAuthStore<TSlice>(selector: (state: AuthStoreState) => TSlice): TSlice {
  return useStore(useAuthContext().store, selector);
}

/** The store itself, for imperative reads (`getState`) in event handlers. */
export function useAuthStoreApi(): AuthStore {
  return useAuthContext().store;
}

export interface AuthStatus {
  loadState: AuthLoadState;
  isAuthenticated: boolean;
  user: AllauthUser | null;
  pendingFlow: Flow | undefined;
  requiresReauthentication: boolean;
  response: AuthenticationResponse | undefined;
}

/**
 * Who is signed in, and whether that is known yet.
 *
 * @example
 * const { loadState, isAuthenticated, user } = useAuthStatus();
 * if (loadState === "ready" && isAuthenticated) return <p>Hello {user?.display}</p>;
 */
export function useAuthStatus(): AuthStatus {
  const loadState = useAuthStore((state) => state.loadState);
  const response = useAuthStore((state) => state.authenticationResponse);
  return useMemo(() => {
    const info = getAuthenticationInfo(response);
    return {
      loadState,
      isAuthenticated: info.isAuthenticated,
      user: info.user,
      pendingFlow: info.pendingFlow,
      requiresReauthentication: info.requiresReauthentication,
      response,
    };
  }, [loadState, response]);
}

/**
 * The server's configuration, undefined until loaded.
 *
 * @example
 * const providers = useConfiguration()?.socialaccount?.providers ?? [];
 */
export function useConfiguration(): AllauthConfiguration | undefined {
  return useAuthStore((state) => state.configuration);
}

/**
 * The signed-in user, or null.
 *
 * @example
 * const user = useUser();
 */
export function useUser(): AllauthUser | null {
  return useAuthStatus().user;
}

/**
 * The last authentication change (`"login"`, `"logout"`, …), or null.
 *
 * @example
 * const lastEvent = useAuthChangeEvent();
 */
export function useAuthChangeEvent(): AuthChangeEvent | null {
  return useAuthStore((state) => state.lastEvent);
}

/**
 * Whether the server offers sign-in by emailed code (`account.login_by_code_enabled`).
 *
 * @example
 * {useLoginByCodeEnabled() && <Link to="/account/login/code">Mail me a sign-in code</Link>}
 */
export function useLoginByCodeEnabled(): boolean {
  return useAuthStore((state) => state.configuration?.account.login_by_code_enabled ?? false);
}

/**
 * Whether email addresses are verified by code rather than by link.
 *
 * @example
 * return useEmailVerificationByCodeEnabled() ? <VerifyEmailByCode /> : <VerifyEmailByLink />;
 */
export function useEmailVerificationByCodeEnabled(): boolean {
  return useAuthStore((state) => state.configuration?.account.email_verification_by_code_enabled ?? false);
}

/**
 * Whether passwords are reset by code rather than by link.
 *
 * @example
 * const byCode = usePasswordResetByCodeEnabled();
 */
export function usePasswordResetByCodeEnabled(): boolean {
  return useAuthStore((state) => state.configuration?.account.password_reset_by_code_enabled ?? false);
}

/**
 * Whether the server accepts new sign-ups.
 *
 * @example
 * {useSignupOpen() && <Link to="/account/signup">Sign up</Link>}
 */
export function useSignupOpen(): boolean {
  return useAuthStore((state) => state.configuration?.account.is_open_for_signup ?? false);
}
