import { useState, type ReactNode } from "react";
import type { AllauthClient, AllauthConfiguration, AuthenticatedResponse } from "@atelier/auth";
import { AuthProvider, createAuthStore } from "@atelier/auth/react";

/** Test-only: an allauth client with the calls a test gives it; the store's subscription is a no-op. */
export function fakeAuthClient(calls: Partial<AllauthClient>): AllauthClient {
  return { subscribeToAuthChanges: () => () => {}, ...calls } as unknown as AllauthClient;
}

const signedInAnswer: AuthenticatedResponse = {
  status: 200,
  data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [{ method: "password", at: 1_700_000_000 }] },
  meta: { is_authenticated: true },
};

/** Test-only: a signed-in user whose server has these account settings; nothing is loaded. */
export function SignedInAs({
  client,
  emailVerificationByCode = false,
  trackSessionActivity = false,
  children,
}: {
  client: AllauthClient;
  emailVerificationByCode?: boolean;
  trackSessionActivity?: boolean;
  children: ReactNode;
}) {
  const configuration: AllauthConfiguration = {
    account: { is_open_for_signup: true, email_verification_by_code_enabled: emailVerificationByCode, login_by_code_enabled: false },
    usersessions: { track_activity: trackSessionActivity },
  };
  const [store] = useState(() => createAuthStore(client, { initialConfiguration: configuration, initialAuthenticationResponse: signedInAnswer }));
  return (
    <AuthProvider client={client} store={store} gate="none" loadOnMount={false}>
      {children}
    </AuthProvider>
  );
}
