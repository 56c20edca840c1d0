import { primaryEmailOf } from "../email-addresses.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { identityBody, readValidBody, requiredTrimmedTextField } from "../identity-validation.ts";
import { authenticationResult, reportSecurityEvent } from "../login-stages.ts";
import { currentPending, requireAccount, setPending } from "../request-guards.ts";
import { dataResult, stageNotPendingResult, statusResult, type IdentityResult } from "../responses.ts";
import { serializeAuthenticator, type StoredAuthenticator, type TotpData } from "./authenticator-store.ts";
import { createTotpSecret, totpCodeMatches, totpStepAt, totpUrlOf } from "./mfa-secrets.ts";
import { addRecord, checkCode, conflict, consumeFailedAttempt, ensureRecoveryCodes, failedKeyOf, finishMfaLogin, generateRecoveryCodes, hasUnverifiedAddress, mfaRecord, ownAuthenticators, pendingMfaLogin, requireRecentAuthenticationForAuthenticators } from "./mfa-support.ts";

/** A TOTP code or a recovery code, trimmed. */
export const authenticatorCodeBody = identityBody({ code: requiredTrimmedTextField });

export async function listAuthenticators(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  return dataResult((await ownAuthenticators(deps, account.id)).map(serializeAuthenticator));
}

export async function getTotp(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { secretBox } = deps;
  const account = requireAccount(request);
  const totp = (await ownAuthenticators(deps, account.id)).find((authenticator) => authenticator.type === "totp");
  if (totp) {
    return dataResult(serializeAuthenticator(totp));
  }
  if (hasUnverifiedAddress(account)) {
    return conflict("unverified_email");
  }
  const secret = createTotpSecret();
  await setPending(deps, request, { ...currentPending(request), totpSetup: { encryptedSecret: secretBox.seal(secret), startedAt: request.now.getTime() } });
  return { status: 404, body: { status: 404, meta: { secret, totp_url: totpUrlOf(secret, primaryEmailOf(account) ?? account.id) } } };
}

export async function activateTotp(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { authenticators, limits, secretBox } = deps;
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const { code } = await readValidBody(request, authenticatorCodeBody);
  if ((await ownAuthenticators(deps, account.id)).some((authenticator) => authenticator.type === "totp")) {
    throw new IdentityStatusError(409, "TOTP is already active.");
  }
  if (hasUnverifiedAddress(account)) {
    throw new IdentityInputError([errorItem("unverified_email", "code")]);
  }
  await consumeFailedAttempt(deps, request, account.id, "code");
  const setup = currentPending(request).totpSetup;
  const secret = setup ? secretBox.open(setup.encryptedSecret) : null;
  if (!secret || !totpCodeMatches(secret, code, request.now)) {
    throw new IdentityInputError([errorItem("incorrect_code", "code")]);
  }
  await limits.clearKey("login_failed", failedKeyOf(account.id));
  // The code used to activate counts as used: it cannot sign in during the rest of its period.
  const totp = await authenticators.createUnlessPresent({ userId: account.id, type: "totp", data: { encryptedSecret: secretBox.seal(secret), lastStep: totpStepAt(request.now) } satisfies TotpData, now: request.now });
  if (!totp) {
    // Activated by the same request sent at once, which got here first.
    throw new IdentityStatusError(409, "TOTP is already active.");
  }
  await setPending(deps, request, { ...currentPending(request), totpSetup: undefined });
  await ensureRecoveryCodes(deps, account.id, request.now);
  await reportSecurityEvent(deps, request, account, "second_factor_added", { detail: "authenticator app" });
  return dataResult(serializeAuthenticator(totp));
}

export async function deactivateTotp(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { authenticators } = deps;
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const totp = (await authenticators.listByUser(account.id)).filter((authenticator) => authenticator.type === "totp");
  if (totp.length === 0) {
    throw new IdentityStatusError(404, "TOTP is not active.");
  }
  await authenticators.delete(totp.map((authenticator) => authenticator.id));
  // Recovery codes only back up a real factor: they go with the last TOTP or security key.
  await authenticators.dropRecoveryCodesWithoutFactor(account.id);
  await reportSecurityEvent(deps, request, account, "second_factor_removed", { detail: "authenticator app" });
  return statusResult(200);
}

export async function getRecoveryCodes(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { configuration, authenticators, secretBox } = deps;
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const recovery = (await ownAuthenticators(deps, account.id)).find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "recovery_codes" }> => authenticator.type === "recovery_codes");
  if (!recovery) {
    throw new IdentityStatusError(404, "No recovery codes.");
  }
  const serialized = serializeAuthenticator(recovery);
  if (recovery.data.unshown === null) {
    // Only HMACs are stored: the codes were shown once already (MFA_RECOVERY_CODES_SHOW_ONCE=true).
    return dataResult(serialized);
  }
  const codes = JSON.parse(secretBox.open(recovery.data.unshown)) as string[];
  if (configuration.identity.mfa.recoveryCodesShowOnce) await authenticators.saveData(recovery.id, { ...recovery.data, unshown: null });
  return dataResult({ ...serialized, unused_codes: codes.filter((_, position) => !recovery.data.used[position]) });
}

export async function regenerateRecoveryCodes(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  if (!(await ownAuthenticators(deps, account.id)).some((authenticator) => authenticator.type === "totp" || authenticator.type === "webauthn")) {
    throw new IdentityInputError([errorItem("cannot_generate_recovery_codes")]);
  }
  const { authenticator, codes } = await generateRecoveryCodes(deps, account.id, request.now, false);
  // Only codes asked for are reported and mailed; those made with a first second factor are part of adding it (as in allauth).
  await reportSecurityEvent(deps, request, account, "recovery_codes_generated");
  return dataResult({ ...serializeAuthenticator(authenticator), unused_codes: codes });
}

export async function authenticate2fa(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings } = deps;
  const pending = pendingMfaLogin(request);
  if (!pending?.userId) {
    return stageNotPendingResult(settings, currentPending(request));
  }
  const { code } = await readValidBody(request, authenticatorCodeBody);
  await consumeFailedAttempt(deps, request, pending.userId, "code");
  const authenticator = await checkCode(deps, pending.userId, code, request.now);
  if (!authenticator) {
    throw new IdentityInputError([errorItem("incorrect_code", "code")]);
  }
  return finishMfaLogin(deps, request, pending.userId, pending.record, authenticator);
}

export async function reauthenticate2fa(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { limits } = deps;
  const account = requireAccount(request);
  const { code } = await readValidBody(request, authenticatorCodeBody);
  await consumeFailedAttempt(deps, request, account.id, "code");
  const authenticator = await checkCode(deps, account.id, code, request.now);
  if (!authenticator) {
    throw new IdentityInputError([errorItem("incorrect_code", "code")]);
  }
  await limits.clearKey("login_failed", failedKeyOf(account.id));
  // allauth's headless view records no `reauthenticated` flag here (API.md §2).
  await addRecord(deps, request, mfaRecord(request, authenticator));
  return authenticationResult(deps, request);
}

/** allauth's authenticator endpoints for TOTP and recovery codes, and the `mfa_authenticate` / `mfa_reauthenticate` flows (API.md §5.9–§5.10). */
export const mfaHandlers = {
  listAuthenticators,
  getTotp,
  activateTotp,
  deactivateTotp,
  getRecoveryCodes,
  regenerateRecoveryCodes,
  authenticate2fa,
  reauthenticate2fa,
} satisfies Record<string, IdentityHandler>;
