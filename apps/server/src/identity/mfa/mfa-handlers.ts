import type { SecurityEventType } from "../../account/security-events.ts";
import type { AuthenticatorType, Configuration, IdentityConfiguration } from "../../config.ts";
import type { AccountStore, UserAccount } from "../email-addresses.ts";
import { primaryEmailOf } from "../email-addresses.ts";
import { epochSecondsOf, type AuthenticationRecord, type PendingState, type PendingWebAuthn } from "../flows.ts";
import { errorItem, IdentityInputError, IdentityStatusError, ReauthenticationRequiredError, throwIfAny, type IdentityErrorItem } from "../identity-errors.ts";
import type { Body, IdentityRequest } from "../identity-service.ts";
import type { IdentityRateLimitAction, IdentityRateLimitDecision, IdentityRateLimits } from "../rate-limits.ts";
import { dataResult, stageNotPendingResult, statusResult, type IdentityResult } from "../responses.ts";
import { constantTimeEquals } from "../secrets.ts";
import type { SessionState, SessionStore } from "../sessions.ts";
import { serializeAuthenticator, type AuthenticatorStore, type RecoveryCodesData, type StoredAuthenticator, type TotpData } from "./authenticator-store.ts";
import { createRecoveryCodes, createSecretBox, createTotpSecret, hashRecoveryCode, totpCodeMatches, totpStepAt, totpUrlOf } from "./mfa-secrets.ts";
import { createWebAuthnCeremonies, credentialIdOf } from "./webauthn.ts";

/** What the MFA handlers borrow from the identity service (its request plumbing and login stages). */
export type MfaServiceInternals = {
  configuration: Configuration;
  settings: IdentityConfiguration;
  accounts: AccountStore;
  authenticators: AuthenticatorStore;
  limits: IdentityRateLimits;
  sessions: SessionStore;
  readBody: (c: IdentityRequest["c"]) => Promise<Body>;
  stringField: (body: Body, name: string) => string;
  emailField: (body: Body, name: string, errors: IdentityErrorItem[]) => string;
  requireAccount: (request: IdentityRequest) => UserAccount;
  ensureSession: (request: IdentityRequest) => Promise<SessionState>;
  setPending: (request: IdentityRequest, pending: PendingState) => Promise<void>;
  currentPending: (request: IdentityRequest) => PendingState;
  signIn: (request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | readonly AuthenticationRecord[] | null) => Promise<IdentityResult>;
  continueLogin: (request: IdentityRequest, account: UserAccount, record: AuthenticationRecord | null, options: { blockedMailIsError: boolean; passwordless?: boolean }) => Promise<IdentityResult>;
  signUp: (request: IdentityRequest, email: string, password: string | null) => Promise<IdentityResult>;
  consumeOr429: (action: IdentityRateLimitAction, subject: { ip: string; user?: string; key?: string }) => Promise<IdentityRateLimitDecision>;
  authenticationResult: (request: IdentityRequest) => IdentityResult;
  hasRecentAuthentication: (request: IdentityRequest, account: UserAccount) => Promise<boolean>;
  reportSecurityEvent: (request: IdentityRequest, account: UserAccount, type: SecurityEventType, extra?: { method?: string; detail?: string }) => Promise<void>;
};

type WebAuthnAuthenticator = Extract<StoredAuthenticator, { type: "webauthn" }>;

function conflict(code: "unverified_email"): IdentityResult {
  return { status: 409, body: { status: 409, errors: [errorItem(code)] } };
}

/** allauth's `mfa-auth-user-<pk>` key of the `login_failed` limit: every wrong second-factor attempt counts. */
function failedKeyOf(userId: string): string {
  return `mfa-auth-user-${userId}`;
}

/**
 * allauth's MFA endpoints (API.md §5.9–§5.11): authenticators (TOTP, recovery codes, WebAuthn), the
 * `mfa_authenticate` / `mfa_reauthenticate` flows, passkey login and passkey signup.
 *
 * @example
 * const handlers = { ...handlers, ...createMfaHandlers(internals) };
 */
export function createMfaHandlers(internals: MfaServiceInternals) {
  const { configuration, settings, accounts, authenticators, limits, sessions } = internals;
  const { readBody, stringField, requireAccount, setPending, currentPending } = internals;
  const box = createSecretBox(configuration.secretKey);
  const ceremonies = createWebAuthnCeremonies(settings.mfa);
  const supports = (type: AuthenticatorType) => settings.mfa.supportedTypes.includes(type);

  async function ownAuthenticators(userId: string): Promise<StoredAuthenticator[]> {
    return (await authenticators.listByUser(userId)).filter((authenticator) => supports(authenticator.type));
  }

  function hasUnverifiedAddress(account: UserAccount): boolean {
    return account.emailAddresses.some((address) => !address.verified);
  }

  /**
   * allauth requires a recent authentication for every authenticator change, whatever ACCOUNT_REAUTHENTICATION_REQUIRED
   * says. A user with no way to reauthenticate (no password, no authenticator) counts as recently authenticated.
   */
  async function requireRecentAuthentication(request: IdentityRequest, account: UserAccount): Promise<void> {
    if (!(await internals.hasRecentAuthentication(request, account))) {
      throw new ReauthenticationRequiredError();
    }
  }

  async function addRecord(request: IdentityRequest, record: AuthenticationRecord): Promise<void> {
    const session = request.session as SessionState;
    session.methods = [...session.methods, record];
    await sessions.saveMethods(session.id, session.methods);
  }

  async function consumeFailedAttempt(request: IdentityRequest, userId: string, param: string): Promise<void> {
    const decision = await limits.consume("login_failed", { ip: request.ip, key: failedKeyOf(userId) });
    if (decision.status === "limited") {
      throw new IdentityInputError([errorItem("too_many_login_attempts", param)]);
    }
  }

  // ---- codes ------------------------------------------------------------------------------------------------------

  /** Accepts the TOTP code of the current step once (a replay in the same period fails) or an unused recovery code. */
  async function checkCode(userId: string, code: string, now: Date): Promise<StoredAuthenticator | null> {
    const own = await ownAuthenticators(userId);
    const totp = own.find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "totp" }> => authenticator.type === "totp");
    if (totp && (await useTotpCode(totp, code, now))) {
      return totp;
    }
    const recovery = own.find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "recovery_codes" }> => authenticator.type === "recovery_codes");
    if (recovery && (await useRecoveryCode(recovery, code, now))) {
      return recovery;
    }
    return null;
  }

  async function useTotpCode(totp: { id: string; data: TotpData }, code: string, now: Date): Promise<boolean> {
    const step = totpStepAt(now);
    if (step <= totp.data.lastStep || !totpCodeMatches(box.open(totp.data.encryptedSecret), code, now)) {
      return false;
    }
    return authenticators.swapData(totp.id, totp.data, { ...totp.data, lastStep: step }, now);
  }

  async function useRecoveryCode(recovery: { id: string; data: RecoveryCodesData }, code: string, now: Date): Promise<boolean> {
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

  const showRecoveryCodesOnce = configuration.identity.mfa.recoveryCodesShowOnce;

  /**
   * Creates (or replaces) the user's recovery codes. An encrypted copy is kept for later GETs: always when the codes
   * are shown on every visit (allauth's default), else only when they were not shown right away (`showLater`).
   */
  async function generateRecoveryCodes(userId: string, now: Date, showLater: boolean): Promise<{ authenticator: StoredAuthenticator; codes: string[] }> {
    const existing = (await authenticators.listByUser(userId)).filter((authenticator) => authenticator.type === "recovery_codes");
    await authenticators.delete(existing.map((authenticator) => authenticator.id));
    const codes = createRecoveryCodes();
    const data: RecoveryCodesData = {
      hashes: codes.map((code) => hashRecoveryCode(configuration.secretKey, code)),
      used: codes.map(() => false),
      unshown: showLater || !showRecoveryCodesOnce ? box.seal(JSON.stringify(codes)) : null,
    };
    return { authenticator: await authenticators.create({ userId, type: "recovery_codes", data, now }), codes };
  }

  /** allauth generates recovery codes with the first real factor; returns whether it did. */
  async function ensureRecoveryCodes(userId: string, now: Date): Promise<boolean> {
    if (!supports("recovery_codes") || (await authenticators.listByUser(userId)).some((authenticator) => authenticator.type === "recovery_codes")) {
      return false;
    }
    await generateRecoveryCodes(userId, now, true);
    return true;
  }

  /** Recovery codes only back up a real factor: they go when the last TOTP or WebAuthn authenticator goes. */
  async function dropDanglingRecoveryCodes(userId: string): Promise<void> {
    const remaining = await authenticators.listByUser(userId);
    if (!remaining.some((authenticator) => authenticator.type === "totp" || authenticator.type === "webauthn")) {
      await authenticators.delete(remaining.filter((authenticator) => authenticator.type === "recovery_codes").map((authenticator) => authenticator.id));
    }
  }

  function mfaRecord(request: IdentityRequest, authenticator: StoredAuthenticator, extra: { reauthenticated?: true; passwordless?: true } = {}): AuthenticationRecord {
    return { method: "mfa", at: epochSecondsOf(request.now), id: authenticator.number, type: authenticator.type, ...extra };
  }

  function pendingMfaLogin(request: IdentityRequest) {
    const login = currentPending(request).login;
    return request.session && !request.account && login?.stage === "mfa_authenticate" && login.userId ? login : null;
  }

  /** Completes the `mfa_authenticate` stage: the first factor's record, then the `mfa` record. */
  async function finishMfaLogin(request: IdentityRequest, userId: string, firstRecord: AuthenticationRecord | null, authenticator: StoredAuthenticator): Promise<IdentityResult> {
    await limits.clearKey("login_failed", failedKeyOf(userId));
    const account = await accounts.findById(userId);
    if (!account || !account.isActive) {
      await setPending(request, { ...currentPending(request), login: undefined });
      return stageNotPendingResult(settings, currentPending(request));
    }
    const records = firstRecord ? [firstRecord, mfaRecord(request, authenticator)] : [mfaRecord(request, authenticator)];
    return internals.signIn(request, account, records);
  }

  // ---- WebAuthn plumbing ------------------------------------------------------------------------------------------

  function credentialOf(body: Body): unknown {
    const credential = body.credential;
    if (typeof credential === "string") {
      try {
        return JSON.parse(credential) as unknown;
      } catch {
        return null;
      }
    }
    return credential && typeof credential === "object" ? credential : null;
  }

  async function startCeremony(request: IdentityRequest, ceremony: Omit<PendingWebAuthn, "startedAt">): Promise<void> {
    await internals.ensureSession(request);
    await setPending(request, { ...currentPending(request), webauthn: { ...ceremony, startedAt: request.now.getTime() } });
  }

  /** Takes the pending challenge of this purpose out of the session (single use, also when the check fails). */
  async function takeCeremony(request: IdentityRequest, purpose: PendingWebAuthn["purpose"]): Promise<PendingWebAuthn | null> {
    const ceremony = currentPending(request).webauthn;
    if (!request.session || !ceremony) {
      return null;
    }
    await setPending(request, { ...currentPending(request), webauthn: undefined });
    return ceremony.purpose === purpose ? ceremony : null;
  }

  function webauthnOf(list: readonly StoredAuthenticator[]): WebAuthnAuthenticator[] {
    return list.filter((authenticator): authenticator is WebAuthnAuthenticator => authenticator.type === "webauthn");
  }

  /** Verifies an assertion for one of `candidates` (the credential must be one of them) and stores the new counter. */
  async function assert(request: IdentityRequest, credential: unknown, ceremony: PendingWebAuthn | null, candidates: readonly WebAuthnAuthenticator[] | null, passwordless: boolean): Promise<WebAuthnAuthenticator | null> {
    const credentialId = credentialIdOf(credential);
    if (!ceremony || !credentialId) {
      return null;
    }
    const stored = candidates ? candidates.find((candidate) => candidate.credentialId === credentialId) : await authenticators.findByCredentialId(credentialId);
    if (!stored || stored.type !== "webauthn") {
      return null;
    }
    const verified = await ceremonies.verifyAuthentication({ credential, challenge: ceremony.challenge, stored, passwordless });
    if (!verified) {
      return null;
    }
    const data = { ...stored.data, counter: verified.newCounter };
    if (!(await authenticators.swapData(stored.id, stored.data, data, request.now))) {
      return null;
    }
    return { ...stored, data };
  }

  async function registerCredential(request: IdentityRequest, account: UserAccount, body: Body, ceremony: PendingWebAuthn | null): Promise<WebAuthnAuthenticator> {
    const credential = credentialOf(body);
    if (!credential) {
      throw new IdentityInputError([errorItem("required", "credential")]);
    }
    const registered = ceremony && ceremony.userId === account.id ? await ceremonies.verifyRegistration({ credential, challenge: ceremony.challenge, passwordless: ceremony.passwordless, userId: account.id }) : null;
    if (!registered || (await authenticators.findByCredentialId(registered.credentialId))) {
      throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
    }
    const name = stringField(body, "name").trim().slice(0, 255) || (ceremony?.passwordless ? "Passkey" : "Security key");
    return (await authenticators.create({ userId: account.id, type: "webauthn", name, credentialId: registered.credentialId, data: registered.data, now: request.now })) as WebAuthnAuthenticator;
  }

  function requestOptionsResult(options: unknown): IdentityResult {
    return dataResult({ request_options: { publicKey: options } });
  }

  // ---- endpoints --------------------------------------------------------------------------------------------------

  return {
    listAuthenticators: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      return dataResult((await ownAuthenticators(account.id)).map(serializeAuthenticator));
    },

    getTotp: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      const totp = (await ownAuthenticators(account.id)).find((authenticator) => authenticator.type === "totp");
      if (totp) {
        return dataResult(serializeAuthenticator(totp));
      }
      if (hasUnverifiedAddress(account)) {
        return conflict("unverified_email");
      }
      const secret = createTotpSecret();
      await setPending(request, { ...currentPending(request), totpSetup: { encryptedSecret: box.seal(secret), startedAt: request.now.getTime() } });
      return { status: 404, body: { status: 404, meta: { secret, totp_url: totpUrlOf(secret, primaryEmailOf(account) ?? account.id) } } };
    },

    activateTotp: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      const body = await readBody(request.c);
      const code = stringField(body, "code").trim();
      throwIfAny(code === "" ? [errorItem("required", "code")] : []);
      if ((await ownAuthenticators(account.id)).some((authenticator) => authenticator.type === "totp")) {
        throw new IdentityStatusError(409, "TOTP is already active.");
      }
      if (hasUnverifiedAddress(account)) {
        throw new IdentityInputError([errorItem("unverified_email", "code")]);
      }
      await consumeFailedAttempt(request, account.id, "code");
      const setup = currentPending(request).totpSetup;
      const secret = setup ? box.open(setup.encryptedSecret) : null;
      if (!secret || !totpCodeMatches(secret, code, request.now)) {
        throw new IdentityInputError([errorItem("incorrect_code", "code")]);
      }
      await limits.clearKey("login_failed", failedKeyOf(account.id));
      // The code used to activate counts as used: it cannot sign in during the rest of its period.
      const totp = await authenticators.create({ userId: account.id, type: "totp", data: { encryptedSecret: box.seal(secret), lastStep: totpStepAt(request.now) } satisfies TotpData, now: request.now });
      await setPending(request, { ...currentPending(request), totpSetup: undefined });
      await ensureRecoveryCodes(account.id, request.now);
      await internals.reportSecurityEvent(request, account, "second_factor_added", { detail: "authenticator app" });
      return dataResult(serializeAuthenticator(totp));
    },

    deactivateTotp: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      const totp = (await authenticators.listByUser(account.id)).filter((authenticator) => authenticator.type === "totp");
      if (totp.length === 0) {
        throw new IdentityStatusError(404, "TOTP is not active.");
      }
      await authenticators.delete(totp.map((authenticator) => authenticator.id));
      await dropDanglingRecoveryCodes(account.id);
      await internals.reportSecurityEvent(request, account, "second_factor_removed", { detail: "authenticator app" });
      return statusResult(200);
    },

    getRecoveryCodes: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      const recovery = (await ownAuthenticators(account.id)).find((authenticator): authenticator is Extract<StoredAuthenticator, { type: "recovery_codes" }> => authenticator.type === "recovery_codes");
      if (!recovery) {
        throw new IdentityStatusError(404, "No recovery codes.");
      }
      const serialized = serializeAuthenticator(recovery);
      if (recovery.data.unshown === null) {
        // Only HMACs are stored: the codes were shown once already (MFA_RECOVERY_CODES_SHOW_ONCE=true).
        return dataResult(serialized);
      }
      const codes = JSON.parse(box.open(recovery.data.unshown)) as string[];
      if (showRecoveryCodesOnce) await authenticators.saveData(recovery.id, { ...recovery.data, unshown: null });
      return dataResult({ ...serialized, unused_codes: codes.filter((_, position) => !recovery.data.used[position]) });
    },

    regenerateRecoveryCodes: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      if (!(await ownAuthenticators(account.id)).some((authenticator) => authenticator.type === "totp" || authenticator.type === "webauthn")) {
        throw new IdentityInputError([errorItem("cannot_generate_recovery_codes")]);
      }
      const { authenticator, codes } = await generateRecoveryCodes(account.id, request.now, false);
      return dataResult({ ...serializeAuthenticator(authenticator), unused_codes: codes });
    },

    authenticate2fa: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = pendingMfaLogin(request);
      if (!pending?.userId) {
        return stageNotPendingResult(settings, currentPending(request));
      }
      const body = await readBody(request.c);
      const code = stringField(body, "code").trim();
      throwIfAny(code === "" ? [errorItem("required", "code")] : []);
      await consumeFailedAttempt(request, pending.userId, "code");
      const authenticator = await checkCode(pending.userId, code, request.now);
      if (!authenticator) {
        throw new IdentityInputError([errorItem("incorrect_code", "code")]);
      }
      return finishMfaLogin(request, pending.userId, pending.record, authenticator);
    },

    reauthenticate2fa: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      const body = await readBody(request.c);
      const code = stringField(body, "code").trim();
      throwIfAny(code === "" ? [errorItem("required", "code")] : []);
      await consumeFailedAttempt(request, account.id, "code");
      const authenticator = await checkCode(account.id, code, request.now);
      if (!authenticator) {
        throw new IdentityInputError([errorItem("incorrect_code", "code")]);
      }
      await limits.clearKey("login_failed", failedKeyOf(account.id));
      // allauth's headless view records no `reauthenticated` flag here (API.md §2).
      await addRecord(request, mfaRecord(request, authenticator));
      return internals.authenticationResult(request);
    },

    // ---- WebAuthn ----

    getWebAuthnCreationOptions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      if (hasUnverifiedAddress(account)) {
        return conflict("unverified_email");
      }
      await requireRecentAuthentication(request, account);
      const passwordless = request.c.req.query("passwordless") !== undefined;
      const options = await ceremonies.registrationOptions({ userId: account.id, userName: primaryEmailOf(account) ?? account.id, existing: webauthnOf(await ownAuthenticators(account.id)), passwordless });
      await startCeremony(request, { purpose: "register", challenge: options.challenge, userId: account.id, passwordless });
      return dataResult({ creation_options: { publicKey: options } });
    },

    addWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      if (hasUnverifiedAddress(account)) {
        return conflict("unverified_email");
      }
      await requireRecentAuthentication(request, account);
      const body = await readBody(request.c);
      const ceremony = await takeCeremony(request, "register");
      const authenticator = await registerCredential(request, account, body, ceremony);
      const generated = await ensureRecoveryCodes(account.id, request.now);
      await internals.reportSecurityEvent(request, account, authenticator.type === "webauthn" && authenticator.data.passwordless ? "passkey_added" : "second_factor_added", { detail: authenticator.type === "webauthn" && authenticator.data.passwordless ? "passkey" : "security key" });
      return { status: 200, body: { status: 200, data: serializeAuthenticator(authenticator), meta: { recovery_codes_generated: generated } } };
    },

    renameWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      const body = await readBody(request.c);
      const name = stringField(body, "name").trim();
      const target = webauthnOf(await ownAuthenticators(account.id)).find((authenticator) => authenticator.number === body.id);
      const errors: IdentityErrorItem[] = [];
      if (!target) {
        errors.push(errorItem(body.id === undefined ? "required" : "invalid_choice", "id"));
      }
      if (name === "") {
        errors.push(errorItem("required", "name"));
      }
      throwIfAny(errors);
      await authenticators.rename((target as WebAuthnAuthenticator).id, name.slice(0, 255));
      return dataResult(serializeAuthenticator({ ...(target as WebAuthnAuthenticator), name: name.slice(0, 255) }));
    },

    deleteWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      await requireRecentAuthentication(request, account);
      const body = await readBody(request.c);
      const numbers = body.authenticators;
      const own = webauthnOf(await ownAuthenticators(account.id));
      if (!Array.isArray(numbers) || numbers.length === 0) {
        throw new IdentityInputError([errorItem("required", "authenticators")]);
      }
      const targets = numbers.map((number) => own.find((authenticator) => authenticator.number === number));
      if (targets.some((target) => !target)) {
        throw new IdentityInputError([errorItem("invalid_choice", "authenticators")]);
      }
      await authenticators.delete(targets.map((target) => (target as WebAuthnAuthenticator).id));
      await dropDanglingRecoveryCodes(account.id);
      await internals.reportSecurityEvent(request, account, "second_factor_removed", { detail: targets.length === 1 ? "security key or passkey" : `${targets.length} security keys or passkeys` });
      return statusResult(200);
    },

    getWebAuthnLoginOptions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const options = await ceremonies.authenticationOptions({ allowed: null, passwordless: true });
      await startCeremony(request, { purpose: "login", challenge: options.challenge, userId: null, passwordless: true });
      return requestOptionsResult(options);
    },

    loginWithWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      await internals.consumeOr429("login", { ip: request.ip });
      const body = await readBody(request.c);
      const credential = credentialOf(body);
      throwIfAny(credential ? [] : [errorItem("required", "credential")]);
      if (request.account) {
        throw new IdentityStatusError(409, "Already signed in.");
      }
      const ceremony = await takeCeremony(request, "login");
      const failed = await limits.consume("login_failed", { ip: request.ip });
      if (failed.status === "limited") {
        throw new IdentityInputError([errorItem("too_many_login_attempts", "credential")]);
      }
      const authenticator = await assert(request, credential, ceremony, null, true);
      const account = authenticator ? await accounts.findById(authenticator.userId) : null;
      if (!authenticator || !account) {
        throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
      }
      await limits.rollback(failed);
      if (!account.isActive) {
        return stageNotPendingResult(settings, currentPending(request));
      }
      return internals.continueLogin(request, account, mfaRecord(request, authenticator, { passwordless: true }), { blockedMailIsError: true, passwordless: true });
    },

    getWebAuthnAuthenticateOptions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = pendingMfaLogin(request);
      if (!pending?.userId) {
        return stageNotPendingResult(settings, currentPending(request));
      }
      const options = await ceremonies.authenticationOptions({ allowed: webauthnOf(await ownAuthenticators(pending.userId)), passwordless: false });
      await startCeremony(request, { purpose: "authenticate", challenge: options.challenge, userId: pending.userId, passwordless: false });
      return requestOptionsResult(options);
    },

    authenticateWithWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = pendingMfaLogin(request);
      if (!pending?.userId) {
        return stageNotPendingResult(settings, currentPending(request));
      }
      const body = await readBody(request.c);
      const credential = credentialOf(body);
      throwIfAny(credential ? [] : [errorItem("required", "credential")]);
      const ceremony = await takeCeremony(request, "authenticate");
      await consumeFailedAttempt(request, pending.userId, "credential");
      const authenticator = ceremony?.userId === pending.userId ? await assert(request, credential, ceremony, webauthnOf(await ownAuthenticators(pending.userId)), false) : null;
      if (!authenticator) {
        throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
      }
      return finishMfaLogin(request, pending.userId, pending.record, authenticator);
    },

    getWebAuthnReauthenticateOptions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      const options = await ceremonies.authenticationOptions({ allowed: webauthnOf(await ownAuthenticators(account.id)), passwordless: false });
      await startCeremony(request, { purpose: "reauthenticate", challenge: options.challenge, userId: account.id, passwordless: false });
      return requestOptionsResult(options);
    },

    reauthenticateWithWebAuthn: async (request: IdentityRequest): Promise<IdentityResult> => {
      const account = requireAccount(request);
      const body = await readBody(request.c);
      const credential = credentialOf(body);
      throwIfAny(credential ? [] : [errorItem("required", "credential")]);
      const ceremony = await takeCeremony(request, "reauthenticate");
      await consumeFailedAttempt(request, account.id, "credential");
      const authenticator = ceremony?.userId === account.id ? await assert(request, credential, ceremony, webauthnOf(await ownAuthenticators(account.id)), false) : null;
      if (!authenticator) {
        throw new IdentityInputError([errorItem("incorrect_code", "credential")]);
      }
      await limits.clearKey("login_failed", failedKeyOf(account.id));
      await addRecord(request, mfaRecord(request, authenticator, { reauthenticated: true }));
      return internals.authenticationResult(request);
    },

    startPasskeySignup: async (request: IdentityRequest): Promise<IdentityResult> => {
      await internals.consumeOr429("signup", { ip: request.ip });
      const body = await readBody(request.c);
      const errors: IdentityErrorItem[] = [];
      const email = internals.emailField(body, "email", errors);
      throwIfAny(errors);
      return internals.signUp(request, email, null);
    },

    getPasskeySignupOptions: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = currentPending(request).login;
      const account = pending?.stage === "mfa_signup_webauthn" && pending.userId ? await accounts.findById(pending.userId) : null;
      if (!account || request.account) {
        throw new IdentityStatusError(409, "No passkey signup is pending in this session.");
      }
      const options = await ceremonies.registrationOptions({ userId: account.id, userName: primaryEmailOf(account) ?? account.id, existing: [], passwordless: true });
      await startCeremony(request, { purpose: "signup", challenge: options.challenge, userId: account.id, passwordless: true });
      return dataResult({ creation_options: { publicKey: options } });
    },

    finishPasskeySignup: async (request: IdentityRequest): Promise<IdentityResult> => {
      const pending = currentPending(request).login;
      const account = pending?.stage === "mfa_signup_webauthn" && pending.userId ? await accounts.findById(pending.userId) : null;
      if (!account || request.account) {
        throw new IdentityStatusError(409, "No passkey signup is pending in this session.");
      }
      const body = await readBody(request.c);
      const ceremony = await takeCeremony(request, "signup");
      await registerCredential(request, account, body, ceremony);
      await ensureRecoveryCodes(account.id, request.now);
      await setPending(request, { ...currentPending(request), login: undefined });
      // As after a password signup, allauth records no authentication method for the new account.
      return internals.signIn(request, account, pending?.record ?? null);
    },

  };
}
