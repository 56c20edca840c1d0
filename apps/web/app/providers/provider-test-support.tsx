import { useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import {
  createAllauthClient,
  type AllauthClient,
  type AllauthConfiguration,
  type AllauthProvider,
  type AuthenticatedResponse,
  type NotAuthenticatedResponse,
} from "@atelier/auth";
import { AuthChangeRedirector, AuthProvider, createAuthStore } from "@atelier/auth/react";

export const localProvider: AllauthProvider = { id: "local", name: "Test ID (local)", flows: ["provider_redirect"] };
export const googleProvider: AllauthProvider = { id: "google", name: "Google", client_id: "123.apps.googleusercontent.com", flows: ["provider_redirect", "provider_token"] };
/** A provider that only takes tokens (`POST auth/provider/token`), so it has no redirect button. */
export const tokenOnlyProvider: AllauthProvider = { id: "apple", name: "Apple", flows: ["provider_token"] };

export const signedInAnswer: AuthenticatedResponse = {
  status: 200,
  data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [{ method: "password", at: 1_700_000_000 }] },
  meta: { is_authenticated: true },
};
export const signedOutAnswer: NotAuthenticatedResponse = { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } };

export function configurationWithProviders(providers: AllauthProvider[] | undefined): AllauthConfiguration {
  return {
    account: { is_open_for_signup: true, email_verification_by_code_enabled: false, login_by_code_enabled: false },
    ...(providers === undefined ? {} : { socialaccount: { providers } }),
    mfa: { supported_types: ["totp", "recovery_codes"], passkey_login_enabled: false },
  };
}

/**
 * Test-only: an auth client whose calls fail with a server error, except those given (usually `vi.fn`s). Hand it to
 * `KnownConfiguration`, from where the components take it (`useAuthClient()`).
 */
export function fakeAuthClient(calls: Partial<AllauthClient> = {}): AllauthClient {
  return { ...createAllauthClient({ baseUrl: "/_allauth", clientType: "browser", fetch: async () => new Response(null, { status: 500 }) }), ...calls };
}

/** Test-only: an auth provider whose configuration and status are already known, so nothing is loaded. */
export function KnownConfiguration({
  providers,
  signedIn = false,
  client = fakeAuthClient(),
  withRedirector = false,
  children,
}: {
  providers: AllauthProvider[] | undefined;
  signedIn?: boolean;
  client?: AllauthClient;
  /** Render the root's AuthChangeRedirector too, to see where an authentication answer sends the user. */
  withRedirector?: boolean;
  children: ReactNode;
}) {
  const [store] = useState(() =>
    createAuthStore(client, {
      initialConfiguration: configurationWithProviders(providers),
      initialAuthenticationResponse: signedIn ? signedInAnswer : signedOutAnswer,
    }),
  );
  return (
    <AuthProvider client={client} store={store} gate="none" loadOnMount={false}>
      {withRedirector ? <AuthChangeRedirector /> : null}
      {children}
    </AuthProvider>
  );
}

/** Test-only: a page that says where the router is. */
export function ShowLocation({ name }: { name: string }) {
  const location = useLocation();
  return (
    <h1>
      {name} at {location.pathname + location.search}
    </h1>
  );
}

/** A promise the test settles by hand, to look at the page while a call is under way. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}
