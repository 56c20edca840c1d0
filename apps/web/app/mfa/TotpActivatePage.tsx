import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { toString as renderQrCode } from "qrcode";
import { Button, Spinner } from "@atelier/ui";
import { totpSetupFromResult, type AllauthClient, type TotpSetup } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";

/** What the activation page shows; after a 401 it waits while the redirector leaves the page (to reauthenticate). */
export type TotpActivationData =
  | { state: "setup"; setup: TotpSetup; qrCodeSvg: string | undefined }
  | { state: "active" }
  | { state: "blocked"; message: string }
  | { state: "failed" }
  | { state: "reauthenticating" };

/** The QR code of the otpauth URL as SVG markup, drawn in the page (nothing leaves the browser). */
async function drawQrCode(url: string): Promise<string | undefined> {
  try {
    return await renderQrCode(url, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

/**
 * The activation page's `clientLoader` (routes/account/totp-activate.tsx): a fresh secret (the 404 with meta) and its
 * QR code, the app already active, or why it cannot be set up.
 */
export async function loadTotpActivation(client: Pick<AllauthClient, "getTotpAuthenticator">): Promise<TotpActivationData> {
  try {
    const result = await client.getTotpAuthenticator();
    const setup = totpSetupFromResult(result);
    if (setup) return { state: "setup", setup, qrCodeSvg: await drawQrCode(setup.totpUrl) };
    if (result.status === 200) return { state: "active" };
    if (result.status === 409) return { state: "blocked", message: result.errors?.[0]?.message ?? "Verify your e-mail address first." };
    // A 401 asks for a reauthentication: the redirector opens that page and brings the user back.
    if (result.status === 401) return { state: "reauthenticating" };
    return { state: "failed" };
  } catch (error) {
    console.error(error);
    return { state: "failed" };
  }
}

/** The QR code to scan with an authenticator app. */
export function TotpQrCode({ svg }: { svg: string | undefined }) {
  if (svg === undefined) return <Spinner label="Drawing the QR code" />;
  return <img className="mfa-qr-code" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="QR code to scan with your authenticator app" width={200} height={200} />;
}

const TITLE = "Activate the authenticator app";

/** Shown while the secret loads on a first visit (the route's `HydrateFallback`), and during a reauthentication. */
export function TotpActivationLoading() {
  return (
    <AccountPage title={TITLE}>
      <Spinner label="Preparing your secret" />
    </AccountPage>
  );
}

/** /account/2fa/totp/activate: the secret from its route's loader as a QR code and text, then checks a code. */
export function TotpActivatePage({
  data,
  recoveryCodesSupported = false,
}: {
  data: TotpActivationData;
  /** Whether the server offers recovery codes: it makes them with the first factor, and they are shown right away. */
  recoveryCodesSupported?: boolean;
}) {
  const client = useAuthClient();
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const navigate = useNavigate();

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

  if (data.state === "reauthenticating") return <TotpActivationLoading />;
  if (data.state !== "setup") {
    return (
      <AccountPage title={TITLE}>
        <p role={data.state === "active" ? undefined : "alert"}>
          {data.state === "active"
            ? "The authenticator app is already active."
            : data.state === "blocked"
              ? data.message
              : "The authenticator app cannot be set up right now. Please try again."}
        </p>
        {data.state === "blocked" ? <Link to="/account/email">Manage your e-mail addresses</Link> : <Link to="/account/2fa">Back to two-factor authentication</Link>}
      </AccountPage>
    );
  }
  return (
    <AccountPage title={TITLE} lead="Scan the QR code with an authenticator app, or type the secret into it, then enter the code it shows.">
      <div className="mfa-totp-setup">
        <TotpQrCode svg={data.qrCodeSvg} />
        <p>
          Secret: <code className="mfa-secret">{data.setup.secret}</code>
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
