import type { AuthenticatorType } from "../../config.ts";
import type { UserAccount } from "../email-addresses.ts";
import { epochSecondsOf, type AuthenticationRecord } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, ReauthenticationRequiredError, errorItem } from "../identity-errors.ts";
import type { IdentityRequest } from "../identity-request.ts";
import { signIn } from "../login-stages.ts";
import { currentPending, hasRecentAuthentication, setPending } from "../request-guards.ts";
import { stageNotPendingResult, type IdentityResult } from "../responses.ts";
import { constantTimeEquals } from "../secrets.ts";
import type { SessionState } from "../sessions.ts";
import type { RecoveryCodesData, StoredAuthenticator, TotpData } from "./authenticator-store.ts";
import { createRecoveryCodes, hashRecoveryCode, totpCodeMatches, totpStepAt } from "./mfa-secrets.ts";

export function conflict(code: "unverified_email"): IdentityResult {
  return { status: 409, body: { status: 409, errors: [errorItem(code)] } };
}

/** allauth's `mfa-auth-user-<pk>` key of the `login_failed` limit: every wrong second-factor attempt counts. */
export function failedKeyOf(userId: string): string {
  return `mfa-auth-user-${userId}`;
}

export function supportsType(deps: IdentityDependencies, type: AuthenticatorType): boolean {
  return deps.settings.mfa.supportedTypes.includes(type);
}

export async function ownAuthenticators(deps: IdentityDependencies, userId: string): Promise<StoredAuthenticator[]> {
  const { authenticators } = deps;
  return (await authenticators.listByUser(userId)).filter((authenticator) => supportsType(deps, authenticator.type));
}

export function hasUnverifiedAddress(account: UserAccount): boolean {
  return account.emailAddresses.some((address) => !address.verified);
}

/**
 * allauth requires a recent authentication for every authenticator change, whatever ACCOUNT_REAUTHENTICATION_REQUIRED
 * says. A user with no way to reauthenticate (no password, no authenticator) counts as recently authenticated.
 */
export async function requireRecentAuthenticationForAuthenticators(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount): Promise<void> {
  if (!(await hasRecentAuthentication(deps, request, account))) {
    throw new ReauthenticationRequiredError();
  }
}

export async function addRecord(deps: IdentityDependencies, request: IdentityRequest, record: AuthenticationRecord): Promise<void> {
  const { sessions } = deps;
  const session = request.session as SessionState;
  session.methods = [...session.methods, record];
  await sessions.saveMethods(session.id, session.methods);
}

export async function consumeFailedAttempt(deps: IdentityDependencies, request: IdentityRequest, userId: string, param: string): Promise<void> {
  const { limits } = deps;
  const decision = await limits.consume("login_failed", { ip: request.ip, key: failedKeyOf(userId) });
  if (decision.status === "limited") {
    throw new IdentityInputError([errorItem("too_many_login_attempts", param)]);
  }
}

/** Accepts the TOTP code of the current step once (a replay in the same period fails) or an unused recovery code. */
export async function checkCode(deps: IdentityDependencies, userId: string, code: string, now: Date): Promise<StoredAuthenticator | null> {
  const own = await ownAuthenticators(deps, userId);
  const totp = own.find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "totp" }> => authenticator.type === "totp");
  if (totp && (await useTotpCode(deps, totp, code, now))) {
    return totp;
  }
  const recovery = own.find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "recovery_codes" }> => authenticator.type === "recovery_codes");
  if (recovery && (await useRecoveryCode(deps, recovery, code, now))) {
    return recovery;
  }
  return null;
}

export async function useTotpCode(deps: IdentityDependencies, totp: { id: string; data: TotpData }, code: string, now: Date): Promise<boolean> {
  const { authenticators, secretBox } = deps;
  const step = totpStepAt(now);
  if (step <= totp.data.lastStep || !totpCodeMatches(secretBox.open(totp.data.encryptedSecret), code, now)) {
    return false;
  }
  return authenticators.swapData(totp.id, totp.data, { ...totp.data, lastStep: step }, now);
}

export async function useRecoveryCode(deps: IdentityDependencies, recovery: { id: string; data: RecoveryCodesData }, code: string, now: Date): Promise<boolean> {
  const { configuration, authenticators } = deps;
  const normalized = code.replace(/[^0-9]/g, "");
  if (normalized === "") {
    return false;
  }
  const hash = hashRecoveryCode(configuration.secretKey, normalized);
  const index = recovery.data.hashes.findIndex((candidate, position) => !recovery.data.used[position] && constantTimeEquals(candidate, hash));
  if (index < 0) {
    return false;
  }
  const used = recovery.data.used.map((value, position) => value || position === index);
  return authenticators.swapData(recovery.id, recovery.data, { ...recovery.data, used }, now);
}

/**
 * Creates (or replaces) the user's recovery codes. An encrypted copy is kept for later GETs: always when the codes
 * are shown on every visit (allauth's default), else only when they were not shown right away (`showLater`).
 */
export async function generateRecoveryCodes(deps: IdentityDependencies, userId: string, now: Date, showLater: boolean): Promise<{ authenticator: StoredAuthenticator; codes: string[] }> {
  const { codes, data } = newRecoveryCodes(deps, showLater);
  return { authenticator: await deps.authenticators.replaceOfType({ userId, type: "recovery_codes", data, now }), codes };
}

function newRecoveryCodes(deps: IdentityDependencies, showLater: boolean): { codes: string[]; data: RecoveryCodesData } {
  const { configuration, secretBox } = deps;
  const codes = createRecoveryCodes();
  const data: RecoveryCodesData = {
    hashes: codes.map((code) => hashRecoveryCode(configuration.secretKey, code)),
    used: codes.map(() => false),
    unshown: showLater || !configuration.identity.mfa.recoveryCodesShowOnce ? secretBox.seal(JSON.stringify(codes)) : null,
  };
  return { codes, data };
}

/** allauth generates recovery codes with the first real factor; returns whether it did (not when the user has some). */
export async function ensureRecoveryCodes(deps: IdentityDependencies, userId: string, now: Date): Promise<boolean> {
  if (!supportsType(deps, "recovery_codes")) {
    return false;
  }
  return (await deps.authenticators.createUnlessPresent({ userId, type: "recovery_codes", data: newRecoveryCodes(deps, true).data, now })) !== null;
}

export function mfaRecord(request: IdentityRequest, authenticator: StoredAuthenticator, extra: { reauthenticated?: true; passwordless?: true } = {}): AuthenticationRecord {
  return { method: "mfa", at: epochSecondsOf(request.now), id: authenticator.number, type: authenticator.type, ...extra };
}

export function pendingMfaLogin(request: IdentityRequest) {
  const login = currentPending(request).login;
  return request.session && !request.account && login?.stage === "mfa_authenticate" && login.userId ? login : null;
}

/** Completes the `mfa_authenticate` stage: the first factor's record, then the `mfa` record. */
export async function finishMfaLogin(deps: IdentityDependencies, request: IdentityRequest, userId: string, firstRecord: AuthenticationRecord | null, authenticator: StoredAuthenticator): Promise<IdentityResult> {
  const { settings, accounts, limits } = deps;
  await limits.clearKey("login_failed", failedKeyOf(userId));
  const account = await accounts.findById(userId);
  if (!account || !account.isActive) {
    await setPending(deps, request, { ...currentPending(request), login: undefined });
    return stageNotPendingResult(settings, currentPending(request));
  }
  const records = firstRecord ? [firstRecord, mfaRecord(request, authenticator)] : [mfaRecord(request, authenticator)];
  return signIn(deps, request, account, records);
}
