import type { ReactNode } from "react";
import { createAllauthClient } from "@atelier/auth";
import { AuthProvider, createAuthStore } from "@atelier/auth/react";
import { createSiteHttp } from "@atelier/site-api";
import { createBillingClient, type BillingClient } from "@atelier/site-api";
import { BillingClientProvider } from "./billing-context.tsx";

const signedInAnswer = {
  status: 200,
  data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [{ method: "password", at: 1_700_000_000 }] },
  meta: { is_authenticated: true },
};
const signedOutAnswer = { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } };

/** Test-only: an auth provider whose status is already known, so no call is made. */
export function KnownAuthentication({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const client = createAllauthClient({ baseUrl: "/_allauth", clientType: "browser", fetch: async () => new Response(null, { status: 500 }) });
  const store = createAuthStore(client, { initialConfiguration: {} as never, initialAuthenticationResponse: (signedIn ? signedInAnswer : signedOutAnswer) as never });
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

export function WithBillingClient({ client, children }: { client: BillingClient; children: ReactNode }) {
  return <BillingClientProvider client={client}>{children}</BillingClientProvider>;
}
