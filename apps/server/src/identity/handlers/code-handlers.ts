import { epochSecondsOf, identityTimeouts } from "../flows.ts";
import type { IdentityDependencies } from "../identity-dependencies.ts";
import { IdentityInputError, IdentityStatusError, errorItem } from "../identity-errors.ts";
import { identityMails } from "../identity-mail.ts";
import type { IdentityHandler, IdentityRequest } from "../identity-request.ts";
import { emailField, identityBody, readValidBody, requiredUntrimmedCodeField } from "../identity-validation.ts";
import { afterVerification, sendMail } from "../login-stages.ts";
import { consumeOr429, currentPending, ensureSession, setPending } from "../request-guards.ts";
import { statusResult, type IdentityResult, unauthenticatedResult } from "../responses.ts";

export const requestLoginCodeBody = identityBody({ email: emailField });
/** The code is checked as typed; the check trims it. */
export const confirmLoginCodeBody = identityBody({ code: requiredUntrimmedCodeField });

export async function requestLoginCode(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { settings, accounts, codes, limits, links } = deps;
  const { email } = await readValidBody(request, requestLoginCodeBody);
  if ((await limits.consume("request_login_code", { ip: request.ip, key: email })).status === "limited") {
    throw new IdentityInputError([errorItem("too_many_login_attempts", "email")]);
  }
  if (request.account) {
    throw new IdentityStatusError(409, "Already signed in.");
  }
  const account = await accounts.findByEmail(email);
  const session = await ensureSession(deps, request);
  const usableAccount = account && account.isActive ? account : null;
  const code = await codes.issueSessionCode({ purpose: "login_by_code", sessionId: session.id, userId: usableAccount?.id ?? null, email, now: request.now, lifetimeSeconds: identityTimeouts.loginByCodeTimeoutSeconds });
  await sendMail(deps, usableAccount ? identityMails.loginCode(email, code) : identityMails.unknownAccount(email, links.signup));
  await setPending(deps, request, { ...currentPending(request), login: { stage: "login_by_code", userId: usableAccount?.id ?? null, email, startedAt: request.now.getTime(), record: null, resendCount: 0 } });
  return unauthenticatedResult(settings, currentPending(request));
}

export async function confirmLoginCode(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { accounts, codes } = deps;
  const pending = currentPending(request).login;
  if (!request.session || pending?.stage !== "login_by_code") {
    throw new IdentityStatusError(409, "No sign-in code is pending in this session.");
  }
  const { code: typedCode } = await readValidBody(request, confirmLoginCodeBody);
  const check = await codes.checkSessionCode({
    sessionId: request.session.id,
    purpose: "login_by_code",
    typedCode,
    now: request.now,
    maximumAttempts: identityTimeouts.loginByCodeMaxAttempts,
    consume: true,
  });
  if (check.status === "no_process") {
    await setPending(deps, request, { ...currentPending(request), login: undefined });
    throw new IdentityStatusError(409, "The sign-in code has expired.");
  }
  if (check.status === "incorrect" || !check.code.user_id) {
    if (check.status === "incorrect" && check.attemptsExhausted) {
      await setPending(deps, request, { ...currentPending(request), login: undefined });
    }
    throw new IdentityInputError([errorItem("incorrect_code", "code")]);
  }
  const account = await accounts.findById(check.code.user_id);
  if (!account || !account.isActive) {
    throw new IdentityInputError([errorItem("incorrect_code", "code")]);
  }
  await accounts.markEmailVerified(account.id, check.code.email);
  return afterVerification(deps, request, account, { method: "code", at: epochSecondsOf(request.now), email: check.code.email });
}

export async function resendLoginCode(deps: IdentityDependencies, request: IdentityRequest): Promise<IdentityResult> {
  const { codes } = deps;
  const pending = currentPending(request).login;
  if (!request.session || pending?.stage !== "login_by_code" || pending.resendCount >= identityTimeouts.maximumResends) {
    throw new IdentityStatusError(409, "No sign-in code can be sent again now.");
  }
  if (!(await codes.findSessionCode(request.session.id, "login_by_code", request.now))) {
    throw new IdentityStatusError(409, "The sign-in code has expired.");
  }
  await consumeOr429(deps, "request_login_code", { ip: request.ip, key: pending.email });
  const code = await codes.issueSessionCode({ purpose: "login_by_code", sessionId: request.session.id, userId: pending.userId, email: pending.email, now: request.now, lifetimeSeconds: identityTimeouts.loginByCodeTimeoutSeconds });
  if (pending.userId) {
    await sendMail(deps, identityMails.loginCode(pending.email, code));
  }
  await setPending(deps, request, { ...currentPending(request), login: { ...pending, resendCount: pending.resendCount + 1 } });
  return statusResult(200);
}

/** allauth's login-by-code endpoints (`auth/code/*`). */
export const codeHandlers = { requestLoginCode, confirmLoginCode, resendLoginCode } satisfies Record<string, IdentityHandler>;
