import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import { FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { authClient } from "../../lib/auth.ts";
import { pathForPendingFlow } from "@atelier/auth";

/** The page of the pending flow, or null (none, or a flow without a page). */
function pendingFlowPath(result: Parameters<typeof pathForPendingFlow>[0]): string | null {
  try {
    return pathForPendingFlow(result);
  } catch {
    return null;
  }
}

export const meta = accountPageMeta("Confirm your e-mail address");

export const INVALID_VERIFICATION_LINK_MESSAGE = "Invalid verification link. The link may has expired or been tampered with. Please try again.";

type KeyState = { state: "loading" } | { state: "valid"; email: string } | { state: "invalid" } | { state: "already-confirmed"; email: string };

export default function VerifyEmailKeyRoute() {
  const { key = "" } = useParams();
  const [keyState, setKeyState] = useState<KeyState>({ state: "loading" });
  const form = useAllauthForm();
  const navigate = useNavigate();

  useEffect(() => {
    let cancelled = false;
    authClient
      .getEmailVerificationKeyInfo(key)
      .then((result) => {
        if (cancelled) return;
        const data = "data" in result ? (result.data as { email?: string } | undefined) : undefined;
        // As allauth's own example does: a refusal that still names the address means it was confirmed before.
        if (result.status === 200 && data?.email) setKeyState({ state: "valid", email: data.email });
        else if (data?.email) setKeyState({ state: "already-confirmed", email: data.email });
        else setKeyState({ state: "invalid" });
      })
      .catch(() => !cancelled && setKeyState({ state: "invalid" }));
    return () => {
      cancelled = true;
    };
  }, [key]);

  const confirm = async (email: string) => {
    const result = await form.submit(() => authClient.verifyEmail({ key }));
    if (result?.status === 401 && pendingFlowPath(result) !== null) {
      // A passkey sign-up goes on to create its passkey.
      navigate(pendingFlowPath(result) ?? "/account/email");
    } else if (result?.status === 200 || result?.status === 401) {
      navigate("/account/email");
    } else if (result?.status === 409 || result?.status === 400) {
      setKeyState({ state: "already-confirmed", email });
    }
  };

  return (
    <AccountPage title="Confirm your e-mail address">
      {keyState.state === "loading" ? <Spinner label="Checking the link" /> : null}
      {keyState.state === "invalid" ? <p role="alert">{INVALID_VERIFICATION_LINK_MESSAGE}</p> : null}
      {keyState.state === "already-confirmed" ? <p role="alert">Unable to confirm email {keyState.email} because it is already confirmed.</p> : null}
      {keyState.state === "valid" ? (
        <>
          <p>
            Please confirm that <strong>{keyState.email}</strong> is your e-mail address.
          </p>
          <FormGeneralErrors errors={form.errors.general} />
          <Button onClick={() => confirm(keyState.email)} disabled={form.submitting}>
            Confirm
          </Button>
        </>
      ) : null}
    </AccountPage>
  );
}
