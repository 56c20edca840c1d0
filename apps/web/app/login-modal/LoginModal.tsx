import { useEffect, useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { Button, Dialog, DialogContent } from "@atelier/ui";
import { errorsByParam } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { useAccountSettings } from "../account/auth-hooks.ts";
import {
  LOGIN_UNEXPECTED_ERROR_MESSAGE,
  PASSWORD_RESET_ANTI_ENUMERATION_MESSAGE,
  PASSWORD_RESET_SPAM_HINT,
  SIGNUP_UNEXPECTED_ERROR_MESSAGE,
  loginFailureMessages,
} from "../account/login-messages.ts";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { focusFirstVisible, headerAccountControls } from "../lib/focus-return.ts";
import { DEFAULT_LOGIN_MODAL_DESCRIPTION, DEFAULT_LOGIN_MODAL_TITLE, useLoginModalStore } from "./login-modal-store.ts";
import { validateLoginModalEmailStep } from "./login-modal-validation.ts";
import { useProgressMergeClient } from "./merge-progress.ts";
import { rememberReturnAfterLogin } from "./return-after-login.ts";
import { PasskeyLoginButton } from "../mfa/PasskeyLoginButton.tsx";
import { usePasskeyLoginOffered } from "../mfa/mfa-settings.ts";
import { ProviderButtons } from "../providers/ProviderButtons.tsx";

/** After a sign-in in the modal: merge the study progress, close, and reload the page (spec 4.2). */
function useFinishSuccessfulLogin() {
  const progressMergeClient = useProgressMergeClient();
  return async () => {
    await progressMergeClient.mergeAnonymousProgress();
    useLoginModalStore.getState().close();
    window.location.reload();
  };
}

/**
 * A 401 that is not a failure: a flow (e-mail verification, a second factor) continues on its own page, and once it
 * completes the visitor comes back to this page.
 */
function handOverToPendingFlow() {
  rememberReturnAfterLogin(`${window.location.pathname}${window.location.search}`);
  useLoginModalStore.getState().close();
}

function InitialStep() {
  const { options, goToStep } = useLoginModalStore();
  const passkeyLoginOffered = usePasskeyLoginOffered();
  const finishSuccessfulLogin = useFinishSuccessfulLogin();
  return (
    <div className="login-modal__step">
      <p>{options.description ?? DEFAULT_LOGIN_MODAL_DESCRIPTION}</p>
      {/* The page is left for the provider; the callback page merges the progress and opens the dashboard. */}
      <ProviderButtons process="login" />
      <Button onClick={() => goToStep("email", "login")}>Continue with email</Button>
      {/* As the other modal logins: merge the study progress and reload; a pending flow continues on its page. */}
      {passkeyLoginOffered ? <PasskeyLoginButton onSignedIn={finishSuccessfulLogin} onPendingFlow={handOverToPendingFlow} /> : null}
    </div>
  );
}

function EmailStep() {
  const client = useAuthClient();
  const finishSuccessfulLogin = useFinishSuccessfulLogin();
  const { emailMode, goToStep } = useLoginModalStore();
  const { loginByCodeEnabled } = useAccountSettings();
  const [fields, setFields] = useState({ email: "", password: "", password2: "" });
  const form = useAllauthForm(emailMode === "login" ? LOGIN_UNEXPECTED_ERROR_MESSAGE : SIGNUP_UNEXPECTED_ERROR_MESSAGE);
  const update = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const validationErrors = validateLoginModalEmailStep(fields, emailMode);
    if (Object.keys(validationErrors).length > 0) {
      form.setErrors({ byParam: validationErrors, general: [] });
      return;
    }
    const result = await form.submit(() =>
      emailMode === "login" ? client.login({ email: fields.email, password: fields.password }) : client.signup({ email: fields.email, password: fields.password }),
    );
    if (!result) return;
    if (result.status === 200) await finishSuccessfulLogin();
    else if (result.status === 401) handOverToPendingFlow();
    else if (result.status === 400 && emailMode === "login") form.setErrors(errorsByParam(loginFailureMessages(result.errors)));
    else if (!result.errors?.length) form.setErrors({ byParam: {}, general: [emailMode === "login" ? LOGIN_UNEXPECTED_ERROR_MESSAGE : SIGNUP_UNEXPECTED_ERROR_MESSAGE] });
  };

  return (
    <form className="account-form login-modal__step" onSubmit={handleSubmit} noValidate>
      <div className="login-modal__mode" role="group" aria-label="Account">
        <Button type="button" size="small" variant={emailMode === "login" ? "primary" : "ghost"} aria-pressed={emailMode === "login"} onClick={() => goToStep("email", "login")}>
          Log in
        </Button>
        <Button type="button" size="small" variant={emailMode === "signup" ? "primary" : "ghost"} aria-pressed={emailMode === "signup"} onClick={() => goToStep("email", "signup")}>
          Sign up
        </Button>
      </div>
      <AccountFormField label="Email" type="email" name="email" autoComplete="email" value={fields.email} onChange={update("email")} errors={form.errors.byParam.email} />
      <AccountFormField
        label="Password"
        type="password"
        name="password"
        autoComplete={emailMode === "login" ? "current-password" : "new-password"}
        value={fields.password}
        onChange={update("password")}
        errors={form.errors.byParam.password}
      />
      {emailMode === "signup" ? (
        <AccountFormField label="Confirm password" type="password" name="password2" autoComplete="new-password" value={fields.password2} onChange={update("password2")} errors={form.errors.byParam.password2} />
      ) : null}
      <FormGeneralErrors errors={form.errors.general} />
      <Button type="submit" disabled={form.submitting}>
        {emailMode === "login" ? "Log in" : "Sign up"}
      </Button>
      {emailMode === "login" ? (
        <div className="login-modal__links">
          <Button type="button" variant="ghost" size="small" onClick={() => goToStep("passwordReset")}>
            Forgot your password?
          </Button>
          {loginByCodeEnabled ? (
            <Button type="button" variant="ghost" size="small" onClick={() => goToStep("loginCode")}>
              Send me a sign-in code
            </Button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

function PasswordResetStep() {
  const client = useAuthClient();
  const [email, setEmail] = useState("");
  const [state, setState] = useState<"asking" | "sent">("asking");
  const form = useAllauthForm();
  const navigate = useNavigate();
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      form.setErrors({ byParam: { email: ["Email is required"] }, general: [] });
      return;
    }
    const result = await form.submit(() => client.requestPasswordReset({ email }));
    if (result?.status === 200) setState("sent");
    else if (result?.status === 401) {
      useLoginModalStore.getState().close();
      navigate("/account/password/reset/confirm");
    } else if (!result || !result.errors?.length) window.alert("The password reset could not be requested. Please try again.");
  };
  if (state === "sent") {
    return (
      <div className="login-modal__step" role="status">
        <h3>Check Your Email</h3>
        <p>{PASSWORD_RESET_ANTI_ENUMERATION_MESSAGE}</p>
        <p>{PASSWORD_RESET_SPAM_HINT}</p>
      </div>
    );
  }
  return (
    <form className="account-form login-modal__step" onSubmit={handleSubmit} noValidate>
      <AccountFormField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
      <FormGeneralErrors errors={form.errors.general} />
      <Button type="submit" disabled={form.submitting}>
        Reset password
      </Button>
    </form>
  );
}

function LoginCodeStep() {
  const client = useAuthClient();
  const [email, setEmail] = useState("");
  const form = useAllauthForm();
  const goToStep = useLoginModalStore((state) => state.goToStep);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      form.setErrors({ byParam: { email: ["Email is required"] }, general: [] });
      return;
    }
    const result = await form.submit(() => client.requestLoginCode({ email }));
    if (result?.status === 401) goToStep("confirmLoginCode");
    else if (!result || !result.errors?.length) window.alert("The sign-in code could not be requested. Please try again.");
  };
  return (
    <form className="account-form login-modal__step" onSubmit={handleSubmit} noValidate>
      <p>We will e-mail you a code that signs you in.</p>
      <AccountFormField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
      <FormGeneralErrors errors={form.errors.general} />
      <Button type="submit" disabled={form.submitting}>
        Send code
      </Button>
    </form>
  );
}

function ConfirmLoginCodeStep() {
  const client = useAuthClient();
  const finishSuccessfulLogin = useFinishSuccessfulLogin();
  const [code, setCode] = useState("");
  const form = useAllauthForm(LOGIN_UNEXPECTED_ERROR_MESSAGE);
  const goToStep = useLoginModalStore((state) => state.goToStep);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) {
      form.setErrors({ byParam: { code: ["Code is required"] }, general: [] });
      return;
    }
    const result = await form.submit(() => client.confirmLoginCode({ code }));
    if (result?.status === 200) await finishSuccessfulLogin();
    else if (result?.status === 401) handOverToPendingFlow();
    else if (result?.status === 409) goToStep("loginCode");
  };
  return (
    <form className="account-form login-modal__step" onSubmit={handleSubmit} noValidate>
      <p>Enter the code we sent to your e-mail address. It expires shortly.</p>
      <AccountFormField label="Code" name="code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} errors={form.errors.byParam.code} />
      <FormGeneralErrors errors={form.errors.general} />
      <Button type="submit" disabled={form.submitting}>
        Sign in
      </Button>
    </form>
  );
}

const stepTitles = {
  email: { login: "Log in", signup: "Sign up" },
  passwordReset: "Reset your password",
  loginCode: "Sign in with a code",
  confirmLoginCode: "Enter your code",
} as const;

/** The sign-in/sign-up dialog: initial → email (login or signup) → password reset → login code → confirm (spec 4.2). */
export function LoginModal() {
  const { state, step, emailMode, options, close } = useLoginModalStore();
  const navigate = useNavigate();
  const location = useLocation();
  // Offered for a protected page: leaving that page (for example, signing out sends the visitor home) withdraws it.
  useEffect(() => {
    if (state === "open" && options.protectedPath && location.pathname !== options.protectedPath.split(/[?#]/)[0]) close();
  }, [location.pathname, state, options.protectedPath, close]);
  const title = step === "initial" ? (options.title ?? DEFAULT_LOGIN_MODAL_TITLE) : step === "email" ? stepTitles.email[emailMode] : stepTitles[step];

  const handleOpenChange = (open: boolean) => {
    if (open) return;
    close();
    // Dismissed on a protected page: the full login page takes over, and brings the visitor back afterwards.
    if (options.protectedPath) navigate(`/account/login?next=${encodeURIComponent(options.protectedPath)}`);
  };

  return (
    <Dialog open={state === "open"} onOpenChange={handleOpenChange}>
      <DialogContent
        title={title}
        className="login-modal"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusFirstVisible(useLoginModalStore.getState().opener, ...headerAccountControls());
        }}
      >
        {step === "initial" ? <InitialStep /> : null}
        {step === "email" ? <EmailStep key={emailMode} /> : null}
        {step === "passwordReset" ? <PasswordResetStep /> : null}
        {step === "loginCode" ? <LoginCodeStep /> : null}
        {step === "confirmLoginCode" ? <ConfirmLoginCodeStep /> : null}
      </DialogContent>
    </Dialog>
  );
}
