import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import type { AllauthClient } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "./AccountFormField.tsx";
import { AccountPage } from "./AccountPage.tsx";
import { pendingFlowPath } from "./pending-flow-path.ts";
import { useAllauthForm } from "./use-allauth-form.ts";

export const INVALID_VERIFICATION_LINK_MESSAGE = "Invalid verification link. The link may has expired or been tampered with. Please try again.";

const VERIFY_EMAIL_TITLE = "Confirm your e-mail address";

/** What the link's key says: an address to confirm, a key that is no good, or an address confirmed before. */
export type EmailVerificationKeyData = { state: "valid"; email: string } | { state: "invalid" } | { state: "already-confirmed"; email: string };

/**
 * The confirmation link's `clientLoader` (routes/account/verify-email-key.tsx): asks what the key is for, a plain
 * function so tests call it with a fake client. A failed call is an invalid link, as before.
 */
export async function loadEmailVerificationKey(client: Pick<AllauthClient, "getEmailVerificationKeyInfo">, key: string): Promise<EmailVerificationKeyData> {
  try {
    const result = await client.getEmailVerificationKeyInfo(key);
    const data = "data" in result ? (result.data as { email?: string } | undefined) : undefined;
    // As allauth's own example does: a refusal that still names the address means it was confirmed before.
    if (result.status === 200 && data?.email) return { state: "valid", email: data.email };
    if (data?.email) return { state: "already-confirmed", email: data.email };
    return { state: "invalid" };
  } catch {
    return { state: "invalid" };
  }
}

/** Shown while the link's key is checked on a first visit (the route's `HydrateFallback`). */
export function VerifyEmailKeyLoading() {
  return (
    <AccountPage title={VERIFY_EMAIL_TITLE}>
      <Spinner label="Checking the link" />
    </AccountPage>
  );
}

/** /account/verify-email/:key: confirms the address the key names, from the route's loader data. */
export function VerifyEmailKeyPage({ verificationKey, data }: { verificationKey: string; data: EmailVerificationKeyData }) {
  const authClient = useAuthClient();
  const [confirmedBefore, setConfirmedBefore] = useState<string | null>(null);
  const form = useAllauthForm();
  const navigate = useNavigate();
  const keyState: EmailVerificationKeyData = confirmedBefore === null ? data : { state: "already-confirmed", email: confirmedBefore };

  const confirm = async (email: string) => {
    const result = await form.submit(() => authClient.verifyEmail({ key: verificationKey }));
    if (result?.status === 401 && pendingFlowPath(result) !== null) {
      // A passkey sign-up goes on to create its passkey.
      navigate(pendingFlowPath(result) ?? "/account/email");
    } else if (result?.status === 200 || result?.status === 401) {
      navigate("/account/email");
    } else if (result?.status === 409 || result?.status === 400) {
      setConfirmedBefore(email);
    }
  };

  return (
    <AccountPage title={VERIFY_EMAIL_TITLE}>
      {keyState.state === "invalid" ? (
        <>
          <p role="alert">{INVALID_VERIFICATION_LINK_MESSAGE}</p>
          {/* "Please try again" needs a way to: the addresses page sends a new link (after a sign-in if need be). */}
          <p>
            <Link to="/account/email">Send a new link from your e-mail addresses</Link>
          </p>
        </>
      ) : null}
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
