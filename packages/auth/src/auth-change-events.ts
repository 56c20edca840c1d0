import type { AllauthUser, AuthenticationMethod, AuthenticationResponse, Flow } from "./schemas.ts";

/** The authentication changes the client derives by comparing two answers (spec §4.1). */
export const AUTH_CHANGE_EVENT = Object.freeze({
  LOGIN: "login",
  LOGOUT: "logout",
  REAUTHENTICATED: "reauthenticated",
  REAUTHENTICATION_REQUIRED: "reauthentication-required",
  FLOW_UPDATED: "flow-updated",
} as const);

/** `"login" | "logout" | "reauthenticated" | "reauthentication-required" | "flow-updated"`. */
export type AuthChangeEvent = (typeof AUTH_CHANGE_EVENT)[keyof typeof AUTH_CHANGE_EVENT];

/** Who is signed in according to one authentication answer. */
export interface AuthenticationInfo {
  isAuthenticated: boolean;
  /** Signed in, but the last call needs a fresh authentication (401 with `meta.is_authenticated` true). */
  requiresReauthentication: boolean;
  user: AllauthUser | null;
  /** The flow with `is_pending: true`, such as `verify_email` after a signup. */
  pendingFlow: Flow | undefined;
  methods: AuthenticationMethod[];
}

const SIGNED_OUT_INFO: AuthenticationInfo = Object.freeze({
  isAuthenticated: false,
  requiresReauthentication: false,
  user: null,
  pendingFlow: undefined,
  methods: [],
});

/**
 * Reads who is signed in from an authentication answer; `undefined` (not loaded yet) reads as signed out.
 *
 * @example
 * const { isAuthenticated, user, pendingFlow } = getAuthenticationInfo(await client.getAuthenticationStatus());
 */
export function getAuthenticationInfo(response: AuthenticationResponse | undefined): AuthenticationInfo {
  if (response === undefined) return { ...SIGNED_OUT_INFO, methods: [] };
  switch (response.status) {
    case 200:
      return {
        isAuthenticated: true,
        requiresReauthentication: false,
        user: response.data.user,
        pendingFlow: undefined,
        methods: response.data.methods,
      };
    case 401:
      if ("user" in response.data) {
        return {
          isAuthenticated: true,
          requiresReauthentication: true,
          user: response.data.user,
          pendingFlow: findPendingFlow(response.data.flows),
          methods: response.data.methods,
        };
      }
      return { ...SIGNED_OUT_INFO, pendingFlow: findPendingFlow(response.data.flows), methods: [] };
    case 410:
      return { ...SIGNED_OUT_INFO, pendingFlow: findPendingFlow(response.data.flows), methods: [] };
    default:
      return response satisfies never;
  }
}

/**
 * Every change between two authentication answers, in order (spec §4.1). A changed user id is a logout followed by
 * a login; the first answer (`previous` undefined) is no change.
 *
 * @example
 * describeAuthChange(signedInAsAda, signedInAsGrace); // ["logout", "login"]
 */
export function describeAuthChange(
  previous: AuthenticationResponse | undefined,
  next: AuthenticationResponse,
): AuthChangeEvent[] {
  if (previous === undefined) return [];
  // 410: the app-mode session is gone whatever the previous answer said (allauth's example SPA does the same).
  if (next.status === 410) return [AUTH_CHANGE_EVENT.LOGOUT];

  const events: AuthChangeEvent[] = [];
  let from = getAuthenticationInfo(previous);
  const to = getAuthenticationInfo(next);

  if (from.user !== null && to.user !== null && from.user.id !== to.user.id) {
    events.push(AUTH_CHANGE_EVENT.LOGOUT);
    from = SIGNED_OUT_INFO;
  }

  if (!from.isAuthenticated && to.isAuthenticated) {
    events.push(AUTH_CHANGE_EVENT.LOGIN);
  } else if (from.isAuthenticated && !to.isAuthenticated) {
    events.push(AUTH_CHANGE_EVENT.LOGOUT);
  } else if (from.isAuthenticated && to.isAuthenticated) {
    if (to.requiresReauthentication) {
      events.push(AUTH_CHANGE_EVENT.REAUTHENTICATION_REQUIRED);
    } else if (from.requiresReauthentication || from.methods.length !== to.methods.length) {
      // Spec §4.1 says a shrinking list; allauth appends a record on reauthentication, so a list that grew (a page
      // reloaded on the reauthentication page) means the same. Both count.
      events.push(AUTH_CHANGE_EVENT.REAUTHENTICATED);
    }
  } else if (to.pendingFlow !== undefined && to.pendingFlow.id !== from.pendingFlow?.id) {
    events.push(AUTH_CHANGE_EVENT.FLOW_UPDATED);
  }
  return events;
}

/**
 * The change between two authentication answers, or null: the last of `describeAuthChange` (so a changed user id
 * gives `"login"`).
 *
 * @example
 * determineAuthChangeEvent(signedOut, signedIn); // "login"
 * determineAuthChangeEvent(undefined, signedIn); // null: the first status is not a change
 */
export function determineAuthChangeEvent(
  previous: AuthenticationResponse | undefined,
  next: AuthenticationResponse,
): AuthChangeEvent | null {
  return describeAuthChange(previous, next).at(-1) ?? null;
}

function findPendingFlow(flows: readonly Flow[]): Flow | undefined {
  return flows.find((flow) => flow.is_pending === true);
}
