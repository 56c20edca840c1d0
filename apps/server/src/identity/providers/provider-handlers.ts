import * as v from "valibot";
import { isValidEmail, normalizeEmail } from "../email-addresses.ts";
import { epochSecondsOf, maximumPendingProviderRedirects, type AuthenticationRecord, type PendingProviderRedirect } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, ReauthenticationRequiredError, errorItem, type IdentityErrorCode, type IdentityErrorItem } from "../identity-errors.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { emailField, identityBody, readValidBody, requiredTextField, textField } from "../identity-validation.ts";
import { continueLogin, createUserUnlessTaken, reportSecurityEvent, sendEmailVerification } from "../login-stages.ts";
import { currentPending, isRecentlyAuthenticated, requireAccount, setPending } from "../request-guards.ts";
import { dataResult, redirectResult, type IdentityResult } from "../responses.ts";
import { describeSocialProvider, type ProviderDescription } from "./provider-description.ts";
import { SocialAccountAlreadyConnectedError, type SocialAccount } from "./social-account-store.ts";
import type { ProviderProfile, SocialProvider } from "./social-providers.ts";
import { logger } from "../../logging/logger.ts";

/** allauth's error codes on the way back to the callback URL (API.md §8). */
export type ProviderCallbackError = "unknown" | "cancelled" | "permission_denied" | "reauthentication_required" | "connected_other";

type ProviderProcess = PendingProviderRedirect["process"];

/** The URL registered at the provider: allauth's `/accounts/<provider>/login/callback/`. */
export function backendCallbackUrlOf(deps: IdentityDependencies, providerId: string): string {
  const { configuration } = deps;
  return `${configuration.publicOrigin}/accounts/${encodeURIComponent(providerId)}/login/callback/`;
}

/** allauth's `is_safe_url`: a path on this site, or an absolute URL of this very origin. */
export function safeCallbackUrl(deps: IdentityDependencies, text: string): string | null {
  const { configuration } = deps;
  if (text === "" || text.length > 2_000 || text.includes("\\") || [...text].some((character) => character.charCodeAt(0) < 0x20)) {
    return null;
  }
  if (text.startsWith("/") && !text.startsWith("//")) {
    return new URL(text, configuration.publicOrigin).href;
  }
  try {
    const url = new URL(text);
    return url.origin === configuration.publicOrigin ? url.href : null;
  } catch {
    return null;
  }
}

export function withError(callbackUrl: string, error: ProviderCallbackError, process: ProviderProcess): IdentityResult {
  const url = new URL(callbackUrl);
  url.searchParams.set("error", error);
  url.searchParams.set("error_process", process);
  return redirectResult(url.href);
}

/** Where allauth sends a browser whose answer cannot be tied to a callback URL (lost or forged state). */
export function errorPage(deps: IdentityDependencies, process: ProviderProcess = "login"): IdentityResult {
  const { configuration } = deps;
  return withError(`${configuration.publicOrigin}/account/provider/error`, "unknown", process);
}

export function describeConnected(deps: IdentityDependencies, socialAccount: SocialAccount): { uid: string; display: string; provider: ProviderDescription } {
  const { settings } = deps;
  const configured = settings.socialProviders.find((provider) => provider.id === socialAccount.provider);
  // A provider removed from the configuration still shows, so that its account can be disconnected.
  const provider: ProviderDescription = configured ? describeSocialProvider(configured) : { id: socialAccount.provider, name: socialAccount.provider, flows: ["provider_redirect"], client_id: "" };
  return { uid: socialAccount.uid, display: socialAccount.display, provider };
}

export async function connectedAccountsOf(deps: IdentityDependencies, userId: string) {
  const { socialAccounts } = deps;
  return (await socialAccounts.listByUser(userId)).map((socialAccount) => describeConnected(deps, socialAccount));
}

export async function completeConnect(deps: IdentityDependencies, request: IdentityRequest, redirect: PendingProviderRedirect, provider: SocialProvider, profile: ProviderProfile): Promise<IdentityResult> {
  const { socialAccounts } = deps;
  const account = request.account;
  if (!account || account.id !== redirect.userId) {
    return withError(redirect.callbackUrl, "permission_denied", "connect");
  }
  if (!(await isRecentlyAuthenticated(deps, request, account))) {
    return withError(redirect.callbackUrl, "reauthentication_required", "connect");
  }
  const existing = await socialAccounts.findByProviderUid(provider.id, profile.uid);
  if (existing) {
    if (existing.userId !== account.id) {
      return withError(redirect.callbackUrl, "connected_other", "connect");
    }
    await socialAccounts.recordLogin(existing.id, profile, request.now);
    return redirectResult(redirect.callbackUrl);
  }
  try {
    await socialAccounts.connect(account.id, provider.id, profile, request.now);
  } catch (error) {
    if (error instanceof SocialAccountAlreadyConnectedError) {
      return withError(redirect.callbackUrl, "connected_other", "connect");
    }
    throw error;
  }
  await reportSecurityEvent(deps, request, account, "third_party_account_connected", { detail: provider.name });
  return redirectResult(redirect.callbackUrl);
}

function emailTakenForProviderSignup(providerName: string): IdentityErrorItem {
  return {
    message: `An account already exists with this email address. Please sign in to that account first, then connect your ${providerName} account.`,
    code: "email_taken",
    param: "email",
  };
}

/**
 * allauth's sign-in rules for a provider login: a known third-party account signs its user in; a new one signs in the
 * owner of its address only when both the provider and our records say the address is verified (anything less would
 * let a provider account take over someone's account); a fresh address makes a new account; everything else goes
 * through provider signup.
 */
export async function completeLogin(deps: IdentityDependencies, request: IdentityRequest, redirect: PendingProviderRedirect, provider: SocialProvider, profile: ProviderProfile): Promise<IdentityResult> {
  const { settings, accounts, socialAccounts } = deps;
  const record: AuthenticationRecord = { method: "socialaccount", at: epochSecondsOf(request.now), provider: provider.id, uid: profile.uid };
  const existing = await socialAccounts.findByProviderUid(provider.id, profile.uid);
  if (existing) {
    const owner = await accounts.findById(existing.userId);
    if (!owner || !owner.isActive) {
      return withError(redirect.callbackUrl, "permission_denied", "login");
    }
    await socialAccounts.recordLogin(existing.id, profile, request.now);
    await continueLogin(deps, request, owner, record, { blockedMailIsError: false });
    return redirectResult(redirect.callbackUrl);
  }
  const email = profile.email !== null && isValidEmail(profile.email) ? normalizeEmail(profile.email) : null;
  if (email !== null) {
    let owner = await accounts.findByEmail(email);
    const account = owner ? null : await createUserUnlessTaken(deps, { email, passwordHash: null, now: request.now, emailVerified: profile.emailVerified });
    // An account made with the address meanwhile (another sign-up with it) is its owner, under the rules below.
    if (!owner && !account) owner = await accounts.findByEmail(email);
    if (account) {
      await socialAccounts.connect(account.id, provider.id, profile, request.now);
      if (!profile.emailVerified && settings.emailVerification === "optional") {
        await sendEmailVerification(deps, request, account.id, email);
      }
      await continueLogin(deps, request, account, record, { blockedMailIsError: false });
      return redirectResult(redirect.callbackUrl);
    }
    const ownerAddressVerified = owner?.emailAddresses.some((address) => address.email === email && address.verified) === true;
    if (owner && profile.emailVerified && ownerAddressVerified && owner.isActive) {
      await socialAccounts.connect(owner.id, provider.id, profile, request.now);
      // allauth mails this connection too (`SocialLogin.connect`): the owner learns that the provider now signs them in.
      await reportSecurityEvent(deps, request, owner, "third_party_account_connected", { detail: provider.name });
      await continueLogin(deps, request, owner, record, { blockedMailIsError: false });
      return redirectResult(redirect.callbackUrl);
    }
  }
  await setPending(deps, request, {
    ...currentPending(request),
    login: undefined,
    providerSignup: { provider: provider.id, uid: profile.uid, email, emailVerified: email !== null && profile.emailVerified, display: profile.display, extraData: profile.extraData, startedAt: request.now.getTime() },
  });
  return redirectResult(redirect.callbackUrl);
}

export function pendingSignupOf(deps: IdentityDependencies, request: IdentityRequest) {
  const { settings } = deps;
  const pending = currentPending(request).providerSignup;
  const provider = pending ? settings.socialProviders.find((candidate) => candidate.id === pending.provider) : undefined;
  if (!pending || !provider || request.account) {
    throw new IdentityStatusError(409, "No sign-up with a third-party account is pending in this session.");
  }
  return { pending, provider: describeSocialProvider(provider) };
}

/** The form a page posts to start a redirect; an unknown provider, process or callback URL ends at the error page. */
export const providerRedirectForm = identityBody({ provider: textField, process: textField, callback_url: textField });
export const providerSignupBody = identityBody({ email: emailField });
/** `account` is the uid at the provider, which may be sent as a number. */
export const disconnectProviderAccountBody = identityBody({
  provider: requiredTextField,
  account: v.pipe(
    v.optional(v.unknown(), ""),
    v.transform((uid): string => (typeof uid === "number" ? String(uid) : typeof uid === "string" ? uid : "")),
    v.check((uid) => uid !== "", "required" satisfies IdentityErrorCode),
  ),
});

/** `POST auth/provider/redirect`: a form post (top-level navigation), answered with a 302, never JSON. */
export async function providerRedirect(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { socialProviders } = deps;
  const parsed = v.safeParse(providerRedirectForm, await request.c.req.parseBody().catch(() => ({})));
  // A field that is no text at all (U+0000 in it) is as unknown as a provider that does not exist.
  if (!parsed.success) return errorPage(deps, "login");
  const form = parsed.output;
  const process = form.process || "login";
  const provider = socialProviders.get(form.provider);
  const callbackUrl = safeCallbackUrl(deps, form.callback_url);
  if (!provider || !callbackUrl || (process !== "login" && process !== "connect")) {
    return errorPage(deps, process === "connect" ? "connect" : "login");
  }
  if (process === "connect") {
    if (!request.account) {
      return withError(callbackUrl, "permission_denied", "connect");
    }
    if (!(await isRecentlyAuthenticated(deps, request, request.account))) {
      return withError(callbackUrl, "reauthentication_required", "connect");
    }
  }
  let authorization;
  try {
    authorization = await provider.createAuthorizationRequest(backendCallbackUrlOf(deps, provider.id));
  } catch (error) {
    logger.error({ err: error }, `Sign-in with ${provider.name} could not start: its OpenID configuration could not be read.`);
    return withError(callbackUrl, "unknown", process);
  }
  const redirect: PendingProviderRedirect = {
    provider: provider.id,
    process,
    callbackUrl,
    state: authorization.state,
    nonce: authorization.nonce,
    codeVerifier: authorization.codeVerifier,
    userId: request.account?.id ?? null,
    startedAt: request.now.getTime(),
  };
  const redirects = [...(currentPending(request).providerRedirects ?? []), redirect].slice(-maximumPendingProviderRedirects);
  await setPending(deps, request, { ...currentPending(request), providerRedirects: redirects });
  return redirectResult(authorization.authorizationUrl);
}

/** `GET /accounts/<provider>/login/callback/`: where the provider sends the browser back. Always a 302. */
export async function providerCallback(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { socialProviders } = deps;
  const providerId = request.c.req.param("provider") ?? "";
  const requestUrl = new URL(request.c.req.url);
  const state = requestUrl.searchParams.get("state") ?? "";
  const pending = currentPending(request);
  const redirect = state === "" ? undefined : (pending.providerRedirects ?? []).find((candidate) => candidate.state === state && candidate.provider === providerId);
  const provider = socialProviders.get(providerId);
  if (!redirect || !provider) {
    return errorPage(deps);
  }
  // A state is good for one answer, whatever that answer is.
  await setPending(deps, request, { ...pending, providerRedirects: (pending.providerRedirects ?? []).filter((candidate) => candidate !== redirect) });
  const providerError = requestUrl.searchParams.get("error");
  if (providerError !== null) {
    return withError(redirect.callbackUrl, providerError === "access_denied" ? "cancelled" : "unknown", redirect.process);
  }
  // The URL the provider redirected to, as registered there: the Host a proxy forwards may differ.
  const callbackUrl = new URL(`${backendCallbackUrlOf(deps, provider.id)}${requestUrl.search}`);
  let profile: ProviderProfile;
  try {
    profile = await provider.completeAuthorization(callbackUrl, redirect);
  } catch (error) {
    logger.warn({ err: error }, `Sign-in with ${provider.name} failed at the code exchange:`);
    return withError(redirect.callbackUrl, "unknown", redirect.process);
  }
  return redirect.process === "connect" ? completeConnect(deps, request, redirect, provider, profile) : completeLogin(deps, request, redirect, provider, profile);
}

export async function getProviderSignup(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { pending, provider } = pendingSignupOf(deps, request);
  return dataResult({
    email: pending.email ? [{ email: pending.email, verified: pending.emailVerified, primary: true }] : [],
    account: { uid: pending.uid, display: pending.display, provider },
    user: { display: pending.email ?? "user", ...(pending.email ? { email: pending.email } : {}), has_usable_password: false },
  });
}

export async function providerSignup(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, socialAccounts } = deps;
  const { pending, provider } = pendingSignupOf(deps, request);
  const { email } = await readValidBody(request, providerSignupBody);
  if (await accounts.isEmailInUse(email)) {
    throw new IdentityInputError([emailTakenForProviderSignup(provider.name)]);
  }
  if (await socialAccounts.findByProviderUid(pending.provider, pending.uid)) {
    await setPending(deps, request, { ...currentPending(request), providerSignup: undefined });
    throw new IdentityStatusError(409, "This third-party account was connected meanwhile; sign in with it again.");
  }
  const emailVerified = pending.emailVerified && pending.email === email;
  const account = await createUserUnlessTaken(deps, { email, passwordHash: null, now: request.now, emailVerified });
  if (!account) throw new IdentityInputError([emailTakenForProviderSignup(provider.name)]);
  const profile: ProviderProfile = { uid: pending.uid, email: pending.email, emailVerified: pending.emailVerified, display: pending.display, extraData: pending.extraData };
  await socialAccounts.connect(account.id, pending.provider, profile, request.now);
  await setPending(deps, request, { ...currentPending(request), providerSignup: undefined });
  if (!emailVerified && settings.emailVerification === "optional") {
    await sendEmailVerification(deps, request, account.id, email);
  }
  const record: AuthenticationRecord = { method: "socialaccount", at: epochSecondsOf(request.now), provider: pending.provider, uid: pending.uid };
  return continueLogin(deps, request, account, record, { blockedMailIsError: false });
}

export async function listProviderAccounts(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const account = requireAccount(request);
  return dataResult(await connectedAccountsOf(deps, account.id));
}

/**
 * `DELETE account/providers`: allauth's `validate_disconnect`: the last third-party account of a user without a
 * password (or, with mandatory verification, without a verified address) stays, or the user could not sign in again.
 */
export async function disconnectProviderAccount(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, socialAccounts } = deps;
  const account = requireAccount(request);
  if (!(await isRecentlyAuthenticated(deps, request, account))) {
    throw new ReauthenticationRequiredError();
  }
  const { provider: providerId, account: uid } = await readValidBody(request, disconnectProviderAccountBody);
  const own = await socialAccounts.listByUser(account.id);
  const target = own.find((candidate) => candidate.provider === providerId && candidate.uid === uid);
  if (!target) {
    throw new IdentityInputError([errorItem("account_not_found")]);
  }
  // Why the last third-party account may not go, if it may not; the store checks under the user's lock that it is not the last.
  const keepTheLastBecause =
    account.passwordHash === null ? "no_password" : settings.emailVerification === "mandatory" && !account.emailAddresses.some((address) => address.verified) ? "no_verified_email" : null;
  const outcome = await socialAccounts.disconnect(account.id, target.id, { keepTheLast: keepTheLastBecause !== null });
  if (outcome === "last" && keepTheLastBecause !== null) {
    throw new IdentityInputError([errorItem(keepTheLastBecause)]);
  }
  if (outcome === "gone") {
    throw new IdentityInputError([errorItem("account_not_found")]);
  }
  await reportSecurityEvent(deps, request, account, "third_party_account_disconnected", { detail: describeConnected(deps, target).provider.name });
  return dataResult(await connectedAccountsOf(deps, account.id));
}

/** allauth's third-party endpoints for the browser (API.md §5.8 and §8): the form-posted redirect, our callback, the `provider_signup` flow and the connected accounts. */
export const providerHandlers = {
  providerRedirect,
  providerCallback,
  getProviderSignup,
  providerSignup,
  listProviderAccounts,
  disconnectProviderAccount,
} satisfies Record<string, IdentityHandler>;
