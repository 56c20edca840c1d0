import { replace, useSearchParams } from "react-router";
import { UNKNOWN_FLOW_PATH_MESSAGE, isAuthenticationResponse, pathForPendingFlow, type AllauthClient } from "@atelier/auth";
import { AccountPage } from "../account/AccountPage.tsx";
import { preferStrongestSecondFactor } from "../mfa/second-factor-flows.ts";
import { LOGIN_PATH, LOGIN_REDIRECT_PATH } from "../lib/auth-routes.ts";
import { ProviderFailure } from "./ProviderFailure.tsx";

export const PROVIDER_CALLBACK_STATUS_TEXT = "Finishing your sign-in…";

/** Why the callback page stays: the provider's `?error=`, or a status that could not be asked or read. */
export type ProviderCallbackData = { state: "provider-error" } | { state: "failed"; message?: string };

/**
 * The `clientLoader` of /account/provider/callback (spec §2.3): with `?error=` the page shows the failure; otherwise a
 * fresh `GET auth/session` decides, and the loader redirects (replacing the callback's entry, as the page did):
 * signed in → the dashboard (the server merged the study progress as it signed the user in), a pending flow → its
 * page, else → the login page.
 */
export async function resolveProviderCallback(client: Pick<AllauthClient, "getAuthenticationStatus">, url: URL): Promise<ProviderCallbackData> {
  if (url.searchParams.has("error")) return { state: "provider-error" };
  let target: string;
  try {
    // Not the store's status: it may predate the provider round trip (and the first load of a page is no change).
    const status = await client.getAuthenticationStatus();
    if (status.status === 200) {
      target = LOGIN_REDIRECT_PATH;
    } else {
      const response = isAuthenticationResponse(status) ? status : undefined;
      const flowPath = pathForPendingFlow(response);
      target = flowPath === null ? LOGIN_PATH : preferStrongestSecondFactor(flowPath, response);
    }
  } catch (error) {
    console.error(error);
    const isUnknownFlow = error instanceof Error && error.message === UNKNOWN_FLOW_PATH_MESSAGE;
    return { state: "failed", message: isUnknownFlow ? UNKNOWN_FLOW_PATH_MESSAGE : undefined };
  }
  throw replace(target);
}

/** Shown while the status is asked (the route's `HydrateFallback`). */
export function ProviderCallbackResolving() {
  return (
    <AccountPage title="Sign-in">
      <p role="status">{PROVIDER_CALLBACK_STATUS_TEXT}</p>
    </AccountPage>
  );
}

/** /account/provider/callback when it does not redirect: the provider's failure, or the status's. */
export function ProviderCallbackPage({ data }: { data: ProviderCallbackData }) {
  const [searchParams] = useSearchParams();
  if (data.state === "provider-error") return <ProviderFailure errorCode={searchParams.get("error")} errorProcess={searchParams.get("error_process")} />;
  return data.message ? (
    <AccountPage title="Sign-in">
      <p role="alert">{data.message}</p>
    </AccountPage>
  ) : (
    <ProviderFailure errorCode={null} errorProcess={null} />
  );
}
