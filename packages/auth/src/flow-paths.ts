import { AUTH_CHANGE_EVENT, getAuthenticationInfo, type AuthChangeEvent } from "./auth-change-events.ts";
import type { AuthenticationResponse, AuthenticatorType, Flow, FlowId } from "./schemas.ts";

/** A page per flow; a flow with second-factor types has a page per type. */
export type FlowPathMap = Partial<Record<FlowId, string | Partial<Record<AuthenticatorType, string>>>>;

/**
 * The web route of each flow (spec §2.2). Flows without a page here (`provider_redirect`, `mfa_trust`, …) make
 * `pathForFlow` throw; pass your own map to it to add them.
 */
export const flowPaths = Object.freeze({
  login: "/account/login",
  login_by_code: "/account/login/code/confirm",
  signup: "/account/signup",
  verify_email: "/account/verify-email",
  password_reset_by_code: "/account/password/reset/confirm",
  provider_signup: "/account/provider/signup",
  reauthenticate: "/account/reauthenticate",
  mfa_authenticate: Object.freeze({
    totp: "/account/authenticate/totp",
    recovery_codes: "/account/authenticate/recovery-codes",
    webauthn: "/account/authenticate/webauthn",
  }),
  mfa_reauthenticate: Object.freeze({
    totp: "/account/reauthenticate/totp",
    recovery_codes: "/account/reauthenticate/recovery-codes",
    webauthn: "/account/reauthenticate/webauthn",
  }),
  mfa_signup_webauthn: "/account/signup/passkey/create",
} satisfies FlowPathMap) as FlowPathMap;

/**
 * The app's own pages that the auth flows navigate to, as allauth's react-spa keeps them in `routing.js`: pass yours
 * to `AuthChangeRedirector`, `ProtectedRoute` and `AnonymousRoute`. Nothing of one app is built in.
 */
export interface AuthRoutes {
  /** The login page. */
  login: string;
  /** Where a user lands after logging in when no `next` says otherwise. */
  afterLogin: string;
  /** Where a user lands after logging out; a function picks by the page they were on (`currentPath`, with its query). */
  afterLogout: string | ((currentPath: string) => string);
  /** Where a user lands after reauthenticating when no `next` says otherwise. */
  afterReauthentication: string;
  /** A page per flow. */
  flows: FlowPathMap;
}

/** allauth react-spa's pages: the login page at /account/login, home after a login, a logout and a reauthentication. */
export const defaultAuthRoutes: Readonly<AuthRoutes> = Object.freeze({
  login: "/account/login",
  afterLogin: "/",
  afterLogout: "/",
  afterReauthentication: "/",
  flows: flowPaths,
});

/** The message of the error `pathForFlow` throws for a flow without a page (spec §2.1, §8). */
export const UNKNOWN_FLOW_PATH_MESSAGE = "Unknown path for flow";

/**
 * The page of a flow. For second-factor flows the page is that of `typePreference`, else of the flow's first type
 * (a flow without types gets its first page, the TOTP one). Throws a plain `Error("Unknown path for flow")`
 * (spec §8's exact text) for a flow or type without a page.
 *
 * @example
 * pathForFlow({ id: "mfa_authenticate", is_pending: true, types: ["totp"] }); // "/account/authenticate/totp"
 * pathForFlow({ id: "provider_redirect" }); // throws Error("Unknown path for flow")
 */
export function pathForFlow(flow: Flow, typePreference?: AuthenticatorType, paths: FlowPathMap = flowPaths): string {
  const entry: FlowPathMap[FlowId] = Object.hasOwn(paths, flow.id) ? paths[flow.id] : undefined;
  if (entry === undefined) throw new Error(UNKNOWN_FLOW_PATH_MESSAGE);
  if (typeof entry === "string") return entry;
  const type = typePreference ?? flow.types?.[0];
  if (type === undefined) {
    const firstPath = Object.values(entry)[0];
    if (firstPath === undefined) throw new Error(UNKNOWN_FLOW_PATH_MESSAGE);
    return firstPath;
  }
  const path = Object.hasOwn(entry, type) ? entry[type] : undefined;
  if (path === undefined) throw new Error(UNKNOWN_FLOW_PATH_MESSAGE);
  return path;
}

/**
 * The page of the pending flow of an answer, or null when no flow is pending.
 *
 * @example
 * const result = await client.signup({ email, password });
 * if (result.status === 401) navigate(pathForPendingFlow(result) ?? "/account/login");
 */
export function pathForPendingFlow(response: AuthenticationResponse | undefined, paths: FlowPathMap = flowPaths): string | null {
  const { pendingFlow } = getAuthenticationInfo(response);
  return pendingFlow === undefined ? null : pathForFlow(pendingFlow, undefined, paths);
}

/** Where the user is when an authentication change happens. */
export interface AuthChangeRedirectContext {
  /** The current path with its query, e.g. `"/account/2fa?tab=keys"`. */
  currentPath: string;
  /** The value of the current `next` query parameter, if any. */
  nextParameter?: string | null;
  /** The answer that caused the change. */
  response: AuthenticationResponse | undefined;
  /** Your app's pages; what you leave out is `defaultAuthRoutes`'. */
  routes?: Partial<AuthRoutes>;
}

/**
 * Where to navigate after an authentication change, or null to stay: logout → `routes.afterLogout`; login → the
 * `next` parameter or `routes.afterLogin`; reauthenticated → `next` or `routes.afterReauthentication`;
 * reauthentication required → the first pending (else first) flow's page with `?next=` the current path; flow
 * updated → the pending flow's page.
 *
 * @example
 * redirectForAuthChange("reauthentication-required", { currentPath: "/account/email", response });
 * // "/account/reauthenticate?next=%2Faccount%2Femail"
 * redirectForAuthChange("login", { currentPath: "/account/login", response, routes: { afterLogin: "/dashboard" } }); // "/dashboard"
 */
export function redirectForAuthChange(event: AuthChangeEvent | null, context: AuthChangeRedirectContext): string | null {
  const routes = { ...defaultAuthRoutes, ...context.routes };
  const paths = routes.flows;
  const next = safeLocalPath(context.nextParameter);
  switch (event) {
    case null:
      return null;
    case AUTH_CHANGE_EVENT.LOGOUT:
      return typeof routes.afterLogout === "function" ? routes.afterLogout(context.currentPath) : routes.afterLogout;
    case AUTH_CHANGE_EVENT.LOGIN:
      return next ?? routes.afterLogin;
    case AUTH_CHANGE_EVENT.REAUTHENTICATED:
      return next ?? routes.afterReauthentication;
    case AUTH_CHANGE_EVENT.REAUTHENTICATION_REQUIRED: {
      const data = context.response?.data;
      const flows = data !== undefined && "flows" in data ? data.flows : [];
      const flow = flows.find((candidate) => candidate.is_pending === true) ?? flows[0];
      if (flow === undefined) return null;
      const flowPath = pathForFlow(flow, undefined, paths);
      // Already on the reauthentication page: keep its `next` rather than pointing it at itself.
      if (context.currentPath.split(/[?#]/)[0] === flowPath) return null;
      return `${flowPath}?next=${encodeURIComponent(context.currentPath)}`;
    }
    case AUTH_CHANGE_EVENT.FLOW_UPDATED:
      return pathForPendingFlow(context.response, paths);
    default:
      return event satisfies never;
  }
}

/**
 * A `next` value that is a plain path of this site, or `undefined`. Refused: anything not starting with one `/`
 * (`//evil.example`, `https://…`), backslashes (browsers read `/\evil.example` as `//evil.example`), and control or
 * white-space characters (a tab inside `/\t/evil.example` is dropped by URL parsers), so no `next` becomes an open
 * redirect or an address the router cannot take.
 *
 * @example
 * safeLocalPath("/account/email"); // "/account/email"
 * safeLocalPath("/\\evil.example/"); // undefined
 */
export function safeLocalPath(candidate: string | null | undefined): string | undefined {
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//")) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/.test(candidate)) return undefined;
  const base = "https://same-origin.invalid";
  try {
    if (new URL(candidate, base).origin !== base) return undefined;
  } catch {
    return undefined;
  }
  return candidate;
}
