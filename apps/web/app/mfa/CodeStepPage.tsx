import { useState, type FormEvent } from "react";
import { Button } from "@atelier/ui";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { SecondFactorAlternatives } from "./SecondFactorAlternatives.tsx";
import type { SecondFactorStep } from "./second-factor-flows.ts";

const texts = {
  totp: { label: "Authenticator code", lead: "Enter the code your authenticator app shows.", inputMode: "numeric" },
  recovery_codes: { label: "Recovery code", lead: "Enter one of your unused recovery codes.", inputMode: "text" },
} as const;

/**
 * The second-factor step of a sign-in (`POST auth/2fa/authenticate`) or a reauthentication
 * (`POST auth/2fa/reauthenticate`) with a TOTP or recovery code. On success the store sees the login or the
 * reauthentication and the redirector moves on (to ?next= or the dashboard).
 */
export function CodeStepPage({ step, type }: { step: SecondFactorStep; type: "totp" | "recovery_codes" }) {
  const client = useAuthClient();
  const [code, setCode] = useState("");
  const form = useAllauthForm();
  const text = texts[type];
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) {
      form.setErrors({ byParam: { code: ["Enter a code."] }, general: [] });
      return;
    }
    await form.submit(() => (step === "authenticate" ? client.authenticateWithCode({ code: code.trim() }) : client.reauthenticateWithCode({ code: code.trim() })));
  };
  return (
    <AccountPage title={step === "authenticate" ? "Two-factor authentication" : "Confirm it is you"} lead={text.lead}>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField
          label={text.label}
          name="code"
          inputMode={text.inputMode}
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          errors={form.errors.byParam.code}
        />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          {step === "authenticate" ? "Sign in" : "Confirm"}
        </Button>
      </form>
      <SecondFactorAlternatives step={step} current={type} />
    </AccountPage>
  );
}
