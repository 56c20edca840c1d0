import type { ReactNode } from "react";
import { createAllauthClient } from "@atelier/auth";
import { AuthProvider, createAuthStore, type AuthStore } from "@atelier/auth/react";
import { createBillingClient, createSiteHttp, type BillingClient } from "@atelier/site-api";

const signedInAnswer = {
  status: 200,
  data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [{ method: "password", at: 1_700_000_000 }] },
  meta: { is_authenticated: true },
};
const signedOutAnswer = { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } };

/** Test-only: an auth client whose every call fails, and a store that already knows the status, so no call is made. */
export function knownAuthStore(signedIn: boolean) {
  const client = createAllauthClient({ baseUrl: "/_allauth", clientType: "browser", fetch: async () => new Response(null, { status: 500 }) });
  const store: AuthStore = createAuthStore(client, { initialConfiguration: {} as never, initialAuthenticationResponse: (signedIn ? signedInAnswer : signedOutAnswer) as never });
  return { client, store };
}

/** Test-only: an auth provider whose status is already known, so no call is made. */
export function KnownAuthentication({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const { client, store } = knownAuthStore(signedIn);
  return (
    <AuthProvider client={client} store={store} gate="none" loadOnMount={false}>
      {children}
    </AuthProvider>
  );
}

/** Test-only: a billing client over a fake fetch that answers by path. */
export function fakeBillingClient(answers: Record<string, () => Response>): { client: BillingClient; requestedPaths: string[] } {
  const requestedPaths: string[] = [];
  const client = createBillingClient(
    createSiteHttp({
      fetch: async (input) => {
        const path = new URL((input as Request).url).pathname;
        requestedPaths.push(path);
        const answer = answers[path];
        return answer ? answer() : new Response("Not found", { status: 404 });
      },
    }),
  );
  return { client, requestedPaths };
}

export function jsonAnswer(status: number, body: unknown): () => Response {
  return () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
