export {
  createAuthStore,
  type AuthLoadState,
  type AuthStore,
  type AuthStoreState,
  type CreateAuthStoreOptions,
} from "./auth-store.ts";
export {
  AuthGate,
  AuthProvider,
  LOADING_ERROR_TEXT,
  STARTING_TEXT,
  useAuthChangeEvent,
  useAuthClient,
  useAuthStatus,
  useAuthStore,
  useAuthStoreApi,
  useConfiguration,
  useEmailVerificationByCodeEnabled,
  useLoginByCodeEnabled,
  usePasswordResetByCodeEnabled,
  useSignupOpen,
  useUser,
  type AuthGateProps,
  type AuthProviderProps,
  type AuthStatus,
} from "./auth-provider.tsx";
export {
  AnonymousRoute,
  AuthChangeRedirector,
  ProtectedRoute,
  type AnonymousRouteProps,
  type AuthChangeRedirectorProps,
  type ProtectedRouteProps,
} from "./route-guards.tsx";
// The UI maps server errors to fields with this; re-exported so a form needs one import.
export { errorsByParam, type ErrorsByParam } from "../result.ts";
