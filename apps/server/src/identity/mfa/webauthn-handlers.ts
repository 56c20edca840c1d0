import * as v from "valibot";
import { primaryEmailOf, type UserAccount } from "../email-addresses.ts";
import type { PendingWebAuthn } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem, type IdentityErrorCode } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { credentialField, emailField, identityBody, numberListField, readValidBody, requiredCredentialField, requiredTrimmedTextField, textField } from "../identity-validation.ts";
import { authenticationResult, continueLogin, reportSecurityEvent, signIn, signUp } from "../login-stages.ts";
import { consumeOr429, currentPending, ensureSession, requireAccount, setPending } from "../request-guards.ts";
import { dataResult, stageNotPendingResult, statusResult, type IdentityResult } from "../responses.ts";
import { serializeAuthenticator, type StoredAuthenticator } from "./authenticator-store.ts";
import { addRecord, conflict, consumeFailedAttempt, ensureRecoveryCodes, failedKeyOf, finishMfaLogin, hasUnverifiedAddress, mfaRecord, ownAuthenticators, pendingMfaLogin, requireRecentAuthenticationForAuthenticators } from "./mfa-support.ts";
import { credentialIdOf } from "./webauthn.ts";

type WebAuthnAuthenticator = Extract<StoredAuthenticator, { type: "webauthn" }>;

/** A new key or passkey; `credential` is checked after the pending ceremony is spent (see `credentialField`). */
export const registrationBody = identityBody({ credential: credentialField, name: textField });
export const assertionBody = identityBody({ credential: requiredCredentialField });
export const deleteWebAuthnBody = identityBody({ authenticators: numberListField });
export const passkeySignupBody = identityBody({ email: emailField });

/** `id` names one of the user's own keys: `required` when absent, `invalid_choice` otherwise; the name at most 255 characters. */
export function renameWebAuthnBody(own: readonly WebAuthnAuthenticator[]) {
  return identityBody({
    id: v.pipe(
      v.unknown(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const target = own.find((authenticator) => authenticator.number === dataset.value);
        if (!target) {
          addIssue({ message: "invalid_choice" satisfies IdentityErrorCode });
          return NEVER;
        }
        return target;
      }),
    ),
    name: v.pipe(
      requiredTrimmedTextField,
      v.transform((name) => name.slice(0, 255)),
    ),
  });
}

export async function startCeremony(deps: IdentityDependencies, request: IdentityRequest, ceremony: Omit<PendingWebAuthn, "startedAt">): Promise<void> {
  await ensureSession(deps, request);
  await setPending(deps, request, { ...currentPending(request), webauthn: { ...ceremony, startedAt: request.now.getTime() } });
}

/** Takes the pending challenge of this purpose out of the session (single use, also when the check fails). */
export async function takeCeremony(deps: IdentityDependencies, request: IdentityRequest, purpose: PendingWebAuthn["purpose"]): Promise<PendingWebAuthn | null> {
  const ceremony = currentPending(request).webauthn;
  if (!request.session || !ceremony) {
    return null;
  }
  await setPending(deps, request, { ...currentPending(request), webauthn: undefined });
  return ceremony.purpose === purpose ? ceremony : null;
}

export function webauthnOf(list: readonly StoredAuthenticator[]): WebAuthnAuthenticator[] {
  return list.filter((authenticator): authenticator is WebAuthnAuthenticator => authenticator.type === "webauthn");
}

/** Verifies an assertion for one of `candidates` (the credential must be one of them) and stores the new counter. */
export async function assert(deps: IdentityDependencies, request: IdentityRequest, credential: unknown, ceremony: PendingWebAuthn | null, candidates: readonly WebAuthnAuthenticator[] | null, passwordless: boolean): Promise<WebAuthnAuthenticator | null> {
  const { authenticators, webauthnCeremonies } = deps;
  const credentialId = credentialIdOf(credential);
  if (!ceremony || !credentialId) {
    return null;
  }
  const stored = candidates ? candidates.find((candidate) => candidate.credentialId === credentialId) : await authenticators.findByCredentialId(credentialId);
  if (!stored || stored.type !== "webauthn") {
    return null;
  }
  const verified = await webauthnCeremonies.verifyAuthentication({ credential, challenge: ceremony.challenge, stored, passwordless });
  if (!verified) {
    return null;
  }
  const data = { ...stored.data, counter: verified.newCounter };
  if (!(await authenticators.swapData(stored.id, stored.data, data, request.now))) {
    return null;
  }
  return { ...stored, data };
}

export async function registerCredential(deps: IdentityDependencies, request: IdentityRequest, account: UserAccount, body: v.InferOutput<typeof registrationBody>, ceremony: PendingWebAuthn | null): Promise<WebAuthnAuthenticator> {
  const { authenticators, webauthnCeremonies } = deps;
  const { credential } = body;
  if (!credential) {
    throw new IdentityInputError([errorItem("required", "credential")]);
  }
  const registered = ceremony && ceremony.userId === account.id ? await webauthnCeremonies.verifyRegistration({ credential, challenge: ceremony.challenge, passwordless: ceremony.passwordless, userId: account.id }) : null;
  if (!registered || (await authenticators.findByCredentialId(registered.credentialId))) {
    throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
  }
  const name = body.name.trim().slice(0, 255) || (ceremony?.passwordless ? "Passkey" : "Security key");
  const added = await authenticators.createUnlessPresent({ userId: account.id, type: "webauthn", name, credentialId: registered.credentialId, data: registered.data, now: request.now });
  // Registered by the same request sent at once, which got here first.
  if (!added) throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
  return added as WebAuthnAuthenticator;
}

export function requestOptionsResult(options: unknown): IdentityResult {
  return dataResult({ request_options: { publicKey: options } });
}

export async function getWebAuthnCreationOptions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { webauthnCeremonies } = deps;
  const account = requireAccount(request);
  if (hasUnverifiedAddress(account)) {
    return conflict("unverified_email");
  }
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const passwordless = request.c.req.query("passwordless") !== undefined;
  const options = await webauthnCeremonies.registrationOptions({ userId: account.id, userName: primaryEmailOf(account) ?? account.id, existing: webauthnOf(await ownAuthenticators(deps, account.id)), passwordless });
  await startCeremony(deps, request, { purpose: "register", challenge: options.challenge, userId: account.id, passwordless });
  return dataResult({ creation_options: { publicKey: options } });
}

export async function addWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  if (hasUnverifiedAddress(account)) {
    return conflict("unverified_email");
  }
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const body = await readValidBody(request, registrationBody);
  const ceremony = await takeCeremony(deps, request, "register");
  const authenticator = await registerCredential(deps, request, account, body, ceremony);
  const generated = await ensureRecoveryCodes(deps, account.id, request.now);
  await reportSecurityEvent(deps, request, account, authenticator.type === "webauthn" && authenticator.data.passwordless ? "passkey_added" : "second_factor_added", { detail: authenticator.type === "webauthn" && authenticator.data.passwordless ? "passkey" : "security key" });
  return { status: 200, body: { status: 200, data: serializeAuthenticator(authenticator), meta: { recovery_codes_generated: generated } } };
}

export async function renameWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { authenticators } = deps;
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const { id: target, name } = await readValidBody(request, renameWebAuthnBody(webauthnOf(await ownAuthenticators(deps, account.id))));
  await authenticators.rename(target.id, name);
  return dataResult(serializeAuthenticator({ ...target, name }));
}

export async function deleteWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { authenticators } = deps;
  const account = requireAccount(request);
  await requireRecentAuthenticationForAuthenticators(deps, request, account);
  const { authenticators: numbers } = await readValidBody(request, deleteWebAuthnBody);
  const own = webauthnOf(await ownAuthenticators(deps, account.id));
  const targets = numbers.map((number) => own.find((authenticator) => authenticator.number === number));
  if (targets.some((target) => !target)) {
    throw new IdentityInputError([errorItem("invalid_choice", "authenticators")]);
  }
  await authenticators.delete(targets.map((target) => (target as WebAuthnAuthenticator).id));
  // Recovery codes only back up a real factor: they go with the last TOTP or security key.
  await authenticators.dropRecoveryCodesWithoutFactor(account.id);
  await reportSecurityEvent(deps, request, account, "second_factor_removed", { detail: targets.length === 1 ? "security key or passkey" : `${targets.length} security keys or passkeys` });
  return statusResult(200);
}

export async function getWebAuthnLoginOptions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { webauthnCeremonies } = deps;
  const options = await webauthnCeremonies.authenticationOptions({ allowed: null, passwordless: true });
  await startCeremony(deps, request, { purpose: "login", challenge: options.challenge, userId: null, passwordless: true });
  return requestOptionsResult(options);
}

export async function loginWithWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, limits } = deps;
  await consumeOr429(deps, "login", { ip: request.ip });
  const { credential } = await readValidBody(request, assertionBody);
  if (request.account) {
    throw new IdentityStatusError(409, "Already signed in.");
  }
  const ceremony = await takeCeremony(deps, request, "login");
  const failed = await limits.consume("login_failed", { ip: request.ip });
  if (failed.status === "limited") {
    throw new IdentityInputError([errorItem("too_many_login_attempts", "credential")]);
  }
  const authenticator = await assert(deps, request, credential, ceremony, null, true);
  const account = authenticator ? await accounts.findById(authenticator.userId) : null;
  if (!authenticator || !account) {
    throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
  }
  await limits.rollback(failed);
  if (!account.isActive) {
    return stageNotPendingResult(settings, currentPending(request));
  }
  return continueLogin(deps, request, account, mfaRecord(request, authenticator, { passwordless: true }), { blockedMailIsError: true, passwordless: true });
}

export async function getWebAuthnAuthenticateOptions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, webauthnCeremonies } = deps;
  const pending = pendingMfaLogin(request);
  if (!pending?.userId) {
    return stageNotPendingResult(settings, currentPending(request));
  }
  const options = await webauthnCeremonies.authenticationOptions({ allowed: webauthnOf(await ownAuthenticators(deps, pending.userId)), passwordless: false });
  await startCeremony(deps, request, { purpose: "authenticate", challenge: options.challenge, userId: pending.userId, passwordless: false });
  return requestOptionsResult(options);
}

export async function authenticateWithWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings } = deps;
  const pending = pendingMfaLogin(request);
  if (!pending?.userId) {
    return stageNotPendingResult(settings, currentPending(request));
  }
  const { credential } = await readValidBody(request, assertionBody);
  const ceremony = await takeCeremony(deps, request, "authenticate");
  await consumeFailedAttempt(deps, request, pending.userId, "credential");
  const authenticator = ceremony?.userId === pending.userId ? await assert(deps, request, credential, ceremony, webauthnOf(await ownAuthenticators(deps, pending.userId)), false) : null;
  if (!authenticator) {
    throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
  }
  return finishMfaLogin(deps, request, pending.userId, pending.record, authenticator);
}

export async function getWebAuthnReauthenticateOptions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { webauthnCeremonies } = deps;
  const account = requireAccount(request);
  const options = await webauthnCeremonies.authenticationOptions({ allowed: webauthnOf(await ownAuthenticators(deps, account.id)), passwordless: false });
  await startCeremony(deps, request, { purpose: "reauthenticate", challenge: options.challenge, userId: account.id, passwordless: false });
  return requestOptionsResult(options);
}

export async function reauthenticateWithWebAuthn(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { limits } = deps;
  const account = requireAccount(request);
  const { credential } = await readValidBody(request, assertionBody);
  const ceremony = await takeCeremony(deps, request, "reauthenticate");
  await consumeFailedAttempt(deps, request, account.id, "credential");
  const authenticator = ceremony?.userId === account.id ? await assert(deps, request, credential, ceremony, webauthnOf(await ownAuthenticators(deps, account.id)), false) : null;
  if (!authenticator) {
    throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
  }
  await limits.clearKey("login_failed", failedKeyOf(account.id));
  await addRecord(deps, request, mfaRecord(request, authenticator, { reauthenticated: true }));
  return authenticationResult(deps, request);
}

export async function startPasskeySignup(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  await consumeOr429(deps, "signup", { ip: request.ip });
  const { email } = await readValidBody(request, passkeySignupBody);
  return signUp(deps, request, email, null);
}

export async function getPasskeySignupOptions(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts, webauthnCeremonies } = deps;
  const pending = currentPending(request).login;
  const account = pending?.stage === "mfa_signup_webauthn" && pending.userId ? await accounts.findById(pending.userId) : null;
  if (!account || request.account) {
    throw new IdentityStatusError(409, "No passkey signup is pending in this session.");
  }
  const options = await webauthnCeremonies.registrationOptions({ userId: account.id, userName: primaryEmailOf(account) ?? account.id, existing: [], passwordless: true });
  await startCeremony(deps, request, { purpose: "signup", challenge: options.challenge, userId: account.id, passwordless: true });
  return dataResult({ creation_options: { publicKey: options } });
}

export async function finishPasskeySignup(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts } = deps;
  const pending = currentPending(request).login;
  const account = pending?.stage === "mfa_signup_webauthn" && pending.userId ? await accounts.findById(pending.userId) : null;
  if (!account || request.account) {
    throw new IdentityStatusError(409, "No passkey signup is pending in this session.");
  }
  const body = await readValidBody(request, registrationBody);
  const ceremony = await takeCeremony(deps, request, "signup");
  await registerCredential(deps, request, account, body, ceremony);
  await ensureRecoveryCodes(deps, account.id, request.now);
  await setPending(deps, request, { ...currentPending(request), login: undefined });
  // As after a password signup, allauth records no authentication method for the new account.
  return signIn(deps, request, account, pending?.record ?? null);
}

/** allauth's WebAuthn endpoints (API.md §5.11): security keys, passkey login, 2FA and reauthentication with a key, and passkey signup. */
export const webauthnHandlers = {
  getWebAuthnCreationOptions,
  addWebAuthn,
  renameWebAuthn,
  deleteWebAuthn,
  getWebAuthnLoginOptions,
  loginWithWebAuthn,
  getWebAuthnAuthenticateOptions,
  authenticateWithWebAuthn,
  getWebAuthnReauthenticateOptions,
  reauthenticateWithWebAuthn,
  startPasskeySignup,
  getPasskeySignupOptions,
  finishPasskeySignup,
} satisfies Record<string, IdentityHandler>;
