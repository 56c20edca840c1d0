import { accountPageMeta } from "../../account/account-meta.ts";
import { loadEmailVerificationKey, VerifyEmailKeyLoading, VerifyEmailKeyPage } from "../../account/VerifyEmailKeyPage.tsx";
import { authClient } from "../../lib/auth.ts";
import type { Route } from "./+types/verify-email-key";

export const meta = accountPageMeta("Confirm your e-mail address");

export function clientLoader({ params }: Route.ClientLoaderArgs) {
  return loadEmailVerificationKey(authClient, params.key);
}

export function HydrateFallback() {
  return <VerifyEmailKeyLoading />;
}

export default function VerifyEmailKeyRoute({ params, loaderData }: Route.ComponentProps) {
  // Another link starts over rather than keeping what the previous one found.
  return <VerifyEmailKeyPage key={params.key} verificationKey={params.key} data={loaderData} />;
}
