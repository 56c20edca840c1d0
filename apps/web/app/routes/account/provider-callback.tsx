import { accountPageMeta } from "../../account/account-meta.ts";
import { authClient } from "../../lib/auth.ts";
import { ProviderCallbackPage, ProviderCallbackResolving, resolveProviderCallback } from "../../providers/ProviderCallbackPage.tsx";
import type { Route } from "./+types/provider-callback";

export const meta = accountPageMeta("Third-party sign-in");

/** Public: a signed-in user, a visitor with a pending flow, or a failure all land here (spec §2.2). */
export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return resolveProviderCallback(authClient, new URL(request.url));
}

export function HydrateFallback() {
  return <ProviderCallbackResolving />;
}

export default function ProviderCallbackRoute({ loaderData }: Route.ComponentProps) {
  return <ProviderCallbackPage data={loaderData} />;
}
