import { useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { UNKNOWN_FLOW_PATH_MESSAGE, pathForPendingFlow, type AllauthClient, type ProviderSignupResponse } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { SIGNUP_UNEXPECTED_ERROR_MESSAGE } from "../account/login-messages.ts";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { LOGIN_PATH, LOGIN_REDIRECT_PATH } from "../lib/auth-routes.ts";
import { preferStrongestSecondFactor } from "../mfa/second-factor-flows.ts";

export const PROVIDER_SIGNUP_LOAD_FAILED_MESSAGE = "The sign-up could not be loaded. Please start again from the login page.";
export const PROVIDER_SIGNUP_CLOSED_MESSAGE = "Sign-up is closed at the moment.";

type PendingSignup = ProviderSignupResponse["data"];

/** What the provider sign-up page shows: the pending sign-up, or why there is none to complete. */
export type ProviderSignupData =
  | { state: "ready"; signup: PendingSignup }
  /** Nothing is pending (409): the login page, as after a submission. */
  | { state: "not-pending" }
  | { state: "failed"; message: string };

/**
 * `GET auth/provider/signup`: the `clientLoader` of /account/provider/signup, a plain function so tests call it with a
 * fake client.
 */
export async function loadProviderSignup(client: Pick<AllauthClient, "getProviderSignup">): Promise<ProviderSignupData> {
  try {
    const result = await client.getProviderSignup();
    if (result.status === 200) return { state: "ready", signup: result.data };
    if (result.status === 409) return { state: "not-pending" };
    return { state: "failed", message: result.status === 403 ? PROVIDER_SIGNUP_CLOSED_MESSAGE : PROVIDER_SIGNUP_LOAD_FAILED_MESSAGE };
  } catch (error) {
    console.error(error);
    return { state: "failed", message: PROVIDER_SIGNUP_LOAD_FAILED_MESSAGE };
  }
}

const TITLE = "Complete your sign-up";

/** Shown while the pending sign-up loads on a first visit (the route's `HydrateFallback`). */
export function ProviderSignupLoading() {
  return (
    <AccountPage title={TITLE}>
      <p role="status">Loading your sign-up…</p>
    </AccountPage>
  );
}

/** The provider's primary address, else its first one, else nothing: the visitor types one. */
function suggestedEmail(signup: PendingSignup): string {
  return (signup.email.find((address) => address.primary) ?? signup.email[0])?.email ?? "";
}

/**
 * /account/provider/signup: the provider gave no usable e-mail address, so the visitor gives one (`POST
 * auth/provider/signup`). 200 → dashboard; 401 → the next flow's page (such as e-mail verification); 400 → errors
 * under the field; 409 (nothing pending) → login, as on arrival.
 */
export function ProviderSignupPage({ data }: { data: ProviderSignupData }) {
  if (data.state === "not-pending") return <Navigate to={LOGIN_PATH} replace />;
  if (data.state === "failed") {
    return (
      <AccountPage title={TITLE}>
        <p role="alert">{data.message}</p>
        <p>
          <Link to={LOGIN_PATH}>Go to the login page</Link>
        </p>
      </AccountPage>
    );
  }
  return <ProviderSignupForm signup={data.signup} />;
}

function ProviderSignupForm({ signup }: { signup: PendingSignup }) {
  const client = useAuthClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState(() => suggestedEmail(signup));
  const form = useAllauthForm(SIGNUP_UNEXPECTED_ERROR_MESSAGE);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await form.submit(() => client.providerSignup({ email: email.trim() }));
    if (!result) return;
    if (result.status === 200) {
      void navigate(LOGIN_REDIRECT_PATH, { replace: true });
    } else if (result.status === 401) {
      let flowPath: string | null;
      try {
        flowPath = pathForPendingFlow(result);
      } catch (error) {
        console.error(error);
        form.setErrors({ byParam: {}, general: [UNKNOWN_FLOW_PATH_MESSAGE] });
        return;
      }
      void navigate(flowPath === null ? LOGIN_PATH : preferStrongestSecondFactor(flowPath, result), { replace: true });
    } else if (result.status === 409) {
      void navigate(LOGIN_PATH, { replace: true });
    } else if (result.status === 403) {
      form.setErrors({ byParam: {}, general: [PROVIDER_SIGNUP_CLOSED_MESSAGE] });
    } else if (!result.errors?.length) {
      form.setErrors({ byParam: {}, general: [SIGNUP_UNEXPECTED_ERROR_MESSAGE] });
    }
  };

  const { account } = signup;
  return (
    <AccountPage title={TITLE} lead={`You are signing up with your ${account.provider.name} account. One more step: which e-mail address should we use?`}>
      <dl className="account-facts">
        <dt>Provider</dt>
        <dd>{account.provider.name}</dd>
        <dt>Account</dt>
        <dd>{account.display}</dd>
      </dl>
      <form className="account-form" onSubmit={handleSubmit} noValidate>
        <AccountFormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} errors={form.errors.byParam.email} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          {form.submitting ? "Signing up..." : "Sign up"}
        </Button>
      </form>
    </AccountPage>
  );
}
