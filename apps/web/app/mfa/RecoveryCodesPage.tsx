import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import type { RecoveryCodesAuthenticator } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { downloadRecoveryCodes } from "./mfa-helpers.ts";

type CodesState = { state: "loading" } | { state: "ready"; codes: RecoveryCodesAuthenticator } | { state: "none" } | { state: "failed" };

/**
 * `GET account/authenticators/recovery-codes`, asked once the page is shown rather than by a route loader: its 401
 * asks for a reauthentication, and the redirector then sends the user back to the page it is on. A loader asks before
 * the navigation lands, so the user would come back to the previous page instead of the codes. The answer can also
 * be the only showing of the codes (MFA_RECOVERY_CODES_SHOW_ONCE), which a loader's revalidation would use up.
 */
function useRecoveryCodes() {
  const client = useAuthClient();
  const [codes, setCodes] = useState<CodesState>({ state: "loading" });
  useEffect(() => {
    let current = true;
    client
      .getRecoveryCodes()
      .then((result) => {
        if (!current) return;
        if (result.status === 200) setCodes({ state: "ready", codes: result.data });
        else if (result.status === 404) setCodes({ state: "none" });
        // 401: the redirector opens the reauthentication page.
        else if (result.status !== 401) setCodes({ state: "failed" });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (current) setCodes({ state: "failed" });
      });
    return () => {
      current = false;
    };
  }, [client]);
  return codes;
}

/** The unused codes with a download button, or the counts when the server shows codes only once. */
export function RecoveryCodeList({ codes }: { codes: RecoveryCodesAuthenticator }) {
  const unusedCodes = codes.unused_codes ?? [];
  return (
    <>
      <p>
        {codes.unused_code_count} of {codes.total_code_count} codes unused. Each code signs you in once; keep them somewhere safe.
      </p>
      {unusedCodes.length > 0 ? (
        <>
          <ul className="mfa-recovery-codes" aria-label="Recovery codes">
            {unusedCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <Button variant="secondary" onClick={() => downloadRecoveryCodes(unusedCodes)}>
            Download codes
          </Button>
        </>
      ) : null}
    </>
  );
}

/** /account/2fa/recovery-codes. */
export function RecoveryCodesPage() {
  const codes = useRecoveryCodes();
  const location = useLocation();
  const arrivedFrom = location.state as { totpJustActivated?: unknown; securityKeyAdded?: unknown } | null;
  const lead =
    arrivedFrom?.totpJustActivated === true
      ? "Your authenticator app is active. If you lose your phone, these codes sign you in instead: save them now."
      : typeof arrivedFrom?.securityKeyAdded === "string"
        ? `${arrivedFrom.securityKeyAdded} was added. If you lose it, these codes sign you in instead: save them now.`
        : undefined;
  return (
    <AccountPage title="Recovery codes" lead={lead}>
      {codes.state === "loading" ? <Spinner label="Loading your recovery codes" /> : null}
      {codes.state === "none" ? <p>You have no recovery codes.</p> : null}
      {codes.state === "failed" ? <p role="alert">Your recovery codes could not be loaded.</p> : null}
      {codes.state === "ready" ? <RecoveryCodeList codes={codes.codes} /> : null}
      <ul className="account-links">
        <li>
          <Link to="/account/2fa/recovery-codes/generate">Generate new codes</Link>
        </li>
        <li>
          <Link to="/account/2fa">Back to two-factor authentication</Link>
        </li>
      </ul>
    </AccountPage>
  );
}

/** /account/2fa/recovery-codes/generate: loads the current codes, then replaces them on request. */
export function GenerateRecoveryCodesPage() {
  const client = useAuthClient();
  const codes = useRecoveryCodes();
  const [generated, setGenerated] = useState<RecoveryCodesAuthenticator | undefined>(undefined);
  const form = useAllauthForm();
  const navigate = useNavigate();
  const generate = async () => {
    const result = await form.submit(() => client.regenerateRecoveryCodes());
    if (result?.status === 200) setGenerated(result.data);
  };
  if (generated) {
    return (
      <AccountPage title="New recovery codes" lead="Your earlier codes no longer work.">
        <RecoveryCodeList codes={generated} />
        <Button variant="ghost" onClick={() => navigate("/account/2fa")}>
          Done
        </Button>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="Generate recovery codes">
      {codes.state === "loading" ? <Spinner label="Loading your recovery codes" /> : null}
      {codes.state === "ready" ? (
        <p>
          You have {codes.codes.unused_code_count} unused codes. New codes replace them: the old ones stop working.
        </p>
      ) : null}
      {codes.state === "none" ? <p>You have no recovery codes yet.</p> : null}
      <FormGeneralErrors errors={form.errors.general} />
      <Button onClick={generate} disabled={form.submitting || codes.state === "loading"}>
        Generate
      </Button>
    </AccountPage>
  );
}
