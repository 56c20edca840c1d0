import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { toString as renderQrCode } from "qrcode";
import { Button, Spinner } from "@atelier/ui";
import { totpSetupFromResult, type TotpSetup } from "@atelier/auth";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { authClient } from "../lib/auth.ts";
import type { MfaClient } from "./use-authenticators.ts";

type ActivationState =
  | { state: "loading" }
  | { state: "setup"; setup: TotpSetup }
  | { state: "active" }
  | { state: "blocked"; message: string }
  | { state: "failed" };

/** The QR code of the otpauth URL, drawn in the page as an SVG image (nothing leaves the browser). */
export function TotpQrCode({ url }: { url: string }) {
  const [svg, setSvg] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    renderQrCode(url, { type: "svg", margin: 2, errorCorrectionLevel: "M" })
      .then((markup) => {
        if (current) setSvg(markup);
      })
      .catch((error: unknown) => console.error(error));
    return () => {
      current = false;
    };
  }, [url]);
  if (svg === undefined) return <Spinner label="Drawing the QR code" />;
  return <img className="mfa-qr-code" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="QR code to scan with your authenticator app" width={200} height={200} />;
}

/** /account/2fa/totp/activate: loads a fresh secret (a 404 with meta), shows it as a QR code and text, checks a code. */
export function TotpActivatePage({
  client = authClient,
  recoveryCodesSupported = false,
}: {
  client?: Pick<MfaClient, "getTotpAuthenticator" | "activateTotp">;
  /** Whether the server offers recovery codes: it makes them with the first factor, and they are shown right away. */
  recoveryCodesSupported?: boolean;
}) {
  const [activation, setActivation] = useState<ActivationState>({ state: "loading" });
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();

  useEffect(() => {
    let current = true;
    client
      .getTotpAuthenticator()
      .then((result) => {
        if (!current) return;
        const setup = totpSetupFromResult(result);
        if (setup) setActivation({ state: "setup", setup });
        else if (result.status === 200) setActivation({ state: "active" });
        else if (result.status === 409) setActivation({ state: "blocked", message: result.errors?.[0]?.message ?? "Verify your e-mail address first." });
        // A 401 asks for a reauthentication: the redirector opens that page and brings the user back.
        else if (result.status !== 401) setActivation({ state: "failed" });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (current) setActivation({ state: "failed" });
      });
    return () => {
      current = false;
    };
  }, [client]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) {
      form.setErrors({ byParam: { code: ["Enter the code your app shows."] }, general: [] });
      return;
    }
    const result = await form.submit(() => client.activateTotp({ code: code.trim() }));
    // allauth creates the recovery codes with the first factor; like allauth's own screens, show them at once.
    if (result?.status === 200) navigate(recoveryCodesSupported ? "/account/2fa/recovery-codes" : "/account/2fa", { state: { totpJustActivated: true } });
  };

  const title = "Activate the authenticator app";
  if (activation.state === "loading") {
    return (
      <AccountPage title={title}>
        <Spinner label="Preparing your secret" />
      </AccountPage>
    );
  }
  if (activation.state !== "setup") {
    return (
      <AccountPage title={title}>
        <p role={activation.state === "active" ? undefined : "alert"}>
          {activation.state === "active"
            ? "The authenticator app is already active."
            : activation.state === "blocked"
              ? activation.message
              : "The authenticator app cannot be set up right now. Please try again."}
        </p>
        {activation.state === "blocked" ? <Link to="/account/email">Manage your e-mail addresses</Link> : <Link to="/account/2fa">Back to two-factor authentication</Link>}
      </AccountPage>
    );
  }
  return (
    <AccountPage title={title} lead="Scan the QR code with an authenticator app, or type the secret into it, then enter the code it shows.">
      <div className="mfa-totp-setup">
        <TotpQrCode url={activation.setup.totpUrl} />
        <p>
          Secret: <code className="mfa-secret">{activation.setup.secret}</code>
        </p>
      </div>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField
          label="Authenticator code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          errors={form.errors.byParam.code}
        />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Activate
        </Button>
      </form>
    </AccountPage>
  );
}
