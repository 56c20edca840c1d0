import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { UNKNOWN_FLOW_PATH_MESSAGE, isAuthenticationResponse, pathForPendingFlow, type AllauthClient } from "@atelier/auth";
import { AccountPage } from "../account/AccountPage.tsx";
import { authClient } from "../lib/auth.ts";
import { preferStrongestSecondFactor } from "../mfa/second-factor-flows.ts";
import { LOGIN_PATH, LOGIN_REDIRECT_PATH } from "../lib/auth-routes.ts";
import { ProviderFailure } from "./ProviderFailure.tsx";

export const PROVIDER_CALLBACK_STATUS_TEXT = "Finishing your sign-in…";

export interface ProviderCallbackPageProps {
  client?: Pick<AllauthClient, "getAuthenticationStatus">;
}

type Resolution = { state: "resolving" } | { state: "failed"; message?: string };

/**
 * /account/provider/callback (spec §2.3): with `?error=` the failure; otherwise a fresh `GET auth/session` decides:
 * signed in → the dashboard (the server merged the study progress as it signed the user in), a pending flow → its
 * page, else → the login page.
 */
export function ProviderCallbackPage({ client = authClient }: ProviderCallbackPageProps) {
  const [searchParams] = useSearchParams();
  const errorCode = searchParams.get("error");
  if (errorCode !== null) return <ProviderFailure errorCode={errorCode} errorProcess={searchParams.get("error_process")} />;
  return <ProviderCallbackResolution client={client} />;
}

function ProviderCallbackResolution({ client }: Required<ProviderCallbackPageProps>) {
  const navigate = useNavigate();
  const [resolution, setResolution] = useState<Resolution>({ state: "resolving" });

  useEffect(() => {
    let current = true;
    const resolve = async () => {
      // Not the store's status: it may predate the provider round trip (and the first load of a page is no change).
      const status = await client.getAuthenticationStatus();
      if (!current) return;
      if (status.status === 200) {
        void navigate(LOGIN_REDIRECT_PATH, { replace: true });
        return;
      }
      const response = isAuthenticationResponse(status) ? status : undefined;
      const flowPath = pathForPendingFlow(response);
      void navigate(flowPath === null ? LOGIN_PATH : preferStrongestSecondFactor(flowPath, response), { replace: true });
    };
    resolve().catch((error: unknown) => {
      console.error(error);
      if (!current) return;
      const isUnknownFlow = error instanceof Error && error.message === UNKNOWN_FLOW_PATH_MESSAGE;
      setResolution({ state: "failed", message: isUnknownFlow ? UNKNOWN_FLOW_PATH_MESSAGE : undefined });
    });
    return () => {
      current = false;
    };
  }, [client, navigate]);

  if (resolution.state === "failed") {
    return resolution.message ? (
      <AccountPage title="Sign-in">
        <p role="alert">{resolution.message}</p>
      </AccountPage>
    ) : (
      <ProviderFailure errorCode={null} errorProcess={null} />
    );
  }
  return (
    <AccountPage title="Sign-in">
      <p role="status">{PROVIDER_CALLBACK_STATUS_TEXT}</p>
    </AccountPage>
  );
}
