import { Link } from "react-router";
import { Badge, Card, CardBody, CardTitle, Spinner } from "@atelier/ui";
import { useConfiguration } from "@atelier/auth/react";
import { AccountPage } from "../account/AccountPage.tsx";
import { formatSeconds } from "./mfa-helpers.ts";
import { findRecoveryCodes, findTotp, securityKeysOf, type AuthenticatorsData } from "./authenticators.ts";

/** Shown while the authenticators load on a first visit (the route's `HydrateFallback`). */
export function TwoFactorOverviewLoading() {
  return (
    <AccountPage title="Two-factor authentication">
      <Spinner label="Loading your authenticators" />
    </AccountPage>
  );
}

/** /account/2fa: the authenticator app, the security keys and the recovery codes (spec §2.3), from its route's loader. */
export function TwoFactorOverview({ data }: { data: AuthenticatorsData }) {
  const supportedTypes = useConfiguration()?.mfa?.supported_types ?? ["totp", "recovery_codes", "webauthn"];

  if (data.state === "failed") {
    return (
      <AccountPage title="Two-factor authentication">
        <p role="alert">Your authenticators could not be loaded. Please reload the page.</p>
      </AccountPage>
    );
  }
  const totp = findTotp(data.authenticators);
  const recoveryCodes = findRecoveryCodes(data.authenticators);
  const securityKeys = securityKeysOf(data.authenticators);

  return (
    <AccountPage title="Two-factor authentication" lead="A second step when you sign in keeps your account safe even if your password leaks.">
      <div className="mfa-overview">
        {supportedTypes.includes("totp") ? (
          <Card>
            <CardBody>
              <CardTitle headingLevel={2}>Authenticator app</CardTitle>
              {totp ? (
                <>
                  <p>
                    <Badge tone="success">Active</Badge> since {formatSeconds(totp.created_at)}; last used: {formatSeconds(totp.last_used_at)}.
                  </p>
                  <Link to="/account/2fa/totp/deactivate">Deactivate</Link>
                </>
              ) : (
                <>
                  <p>No authenticator app is set up.</p>
                  <Link to="/account/2fa/totp/activate">Activate</Link>
                </>
              )}
            </CardBody>
          </Card>
        ) : null}
        {supportedTypes.includes("webauthn") ? (
          <Card>
            <CardBody>
              <CardTitle headingLevel={2}>Security keys</CardTitle>
              <p>{securityKeys.length === 0 ? "No security keys or passkeys are added." : `You have added ${securityKeys.length} security key${securityKeys.length === 1 ? "" : "s"}.`}</p>
              {securityKeys.length === 0 ? <Link to="/account/2fa/webauthn/add">Add a security key</Link> : <Link to="/account/2fa/webauthn">Manage security keys</Link>}
            </CardBody>
          </Card>
        ) : null}
        {supportedTypes.includes("recovery_codes") ? (
          <Card>
            <CardBody>
              <CardTitle headingLevel={2}>Recovery codes</CardTitle>
              {recoveryCodes ? (
                <>
                  <p>
                    {recoveryCodes.unused_code_count} of {recoveryCodes.total_code_count} codes unused.
                  </p>
                  <ul className="account-links">
                    <li>
                      <Link to="/account/2fa/recovery-codes">View codes</Link>
                    </li>
                    <li>
                      <Link to="/account/2fa/recovery-codes/generate">Generate new codes</Link>
                    </li>
                  </ul>
                </>
              ) : (
                <>
                  <p>No recovery codes are set up.</p>
                  {totp || securityKeys.length > 0 ? <Link to="/account/2fa/recovery-codes/generate">Generate codes</Link> : <p>Set up another second factor first.</p>}
                </>
              )}
            </CardBody>
          </Card>
        ) : null}
      </div>
    </AccountPage>
  );
}
