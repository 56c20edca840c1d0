import { flowPaths, pathForFlow, type AuthenticationResponse, type AuthenticatorType, type Flow } from "@atelier/auth";
import { useAuthStatus } from "@atelier/auth/react";

export type SecondFactorStep = "authenticate" | "reauthenticate";

export const AUTHENTICATOR_TYPE_LABELS: Record<AuthenticatorType, string> = {
  totp: "Use your authenticator app",
  recovery_codes: "Use a recovery code",
  webauthn: "Use a security key",
};

/** The page of a second-factor type in a step: `/account/authenticate/totp`, `/account/reauthenticate/webauthn`… */
export function secondFactorPath(step: SecondFactorStep, type: AuthenticatorType): string {
  return `/account/${step}/${type === "recovery_codes" ? "recovery-codes" : type}`;
}

/** The flows of an authentication answer (401s list them; a signed-in 200 has none). */
export function flowsOf(response: ReturnType<typeof useAuthStatus>["response"]): Flow[] {
  const data = response?.data;
  return data !== undefined && "flows" in data ? data.flows : [];
}

/** allauth lists recovery codes first; a user who has a key or an app is asked for that, with the codes one click away. */
const secondFactorPreference: AuthenticatorType[] = ["webauthn", "totp", "recovery_codes"];

/** A second-factor page of `target` turned into the page of the user's strongest type (others keep their target). */
export function preferStrongestSecondFactor(target: string, response: AuthenticationResponse | undefined): string {
  const flow = flowsOf(response).find((candidate) => (candidate.id === "mfa_authenticate" || candidate.id === "mfa_reauthenticate") && candidate.types?.length);
  if (!flow?.types || !target.startsWith(pathForFlow(flow))) return target;
  const preferred = secondFactorPreference.find((type) => flow.types?.includes(type));
  return preferred ? target.replace(pathForFlow(flow), pathForFlow(flow, preferred)) : target;
}

export interface AlternativeMethod {
  path: string;
  label: string;
}

/**
 * The other ways to pass this step, from the last authentication answer: the other types of the pending
 * `mfa_authenticate` (sign-in) or of `mfa_reauthenticate` plus the password (reauthentication).
 */
export function useAlternativeMethods(step: SecondFactorStep, current: AuthenticatorType): AlternativeMethod[] {
  const { response } = useAuthStatus();
  const flows = flowsOf(response);
  const flowId = step === "authenticate" ? "mfa_authenticate" : "mfa_reauthenticate";
  const types = flows.find((flow) => flow.id === flowId)?.types ?? [];
  const alternatives = types
    .filter((type) => type !== current && Object.hasOwn(AUTHENTICATOR_TYPE_LABELS, type))
    .map((type) => ({ path: secondFactorPath(step, type), label: AUTHENTICATOR_TYPE_LABELS[type] }));
  if (step === "reauthenticate" && flows.some((flow) => flow.id === "reauthenticate")) {
    alternatives.unshift({ path: String(flowPaths.reauthenticate), label: "Use your password" });
  }
  return alternatives;
}
