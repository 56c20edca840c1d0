import * as OTPAuth from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { codeInMail, currentTotpCode, logInWithPassword, signUpAndVerify, uniqueEmail, waitForHydration, waitForMail, waitForTimeStepAfter } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

/** Chromium's DevTools virtual authenticator: a platform passkey with user verification, always present. */
async function withVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  await session.send("WebAuthn.enable");
  await session.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function signOutThroughTheMenu(page: Page) {
  const account = page.locator(".site-header__account");
  await account.getByRole("button").first().click();
  await account.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${testbed.server.origin}/`);
}

describe("given Chromium's virtual authenticator", () => {
  it("should sign up with a passkey alone, then sign in with it without typing an e-mail", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await withVirtualAuthenticator(context, page);
      const email = uniqueEmail("passkey");
      await page.goto(`${testbed.server.origin}/account/signup/passkey`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "Email" }).fill(email);
      await main.getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/verify-email`);
      await main.getByRole("textbox", { name: "Code" }).fill(codeInMail(await waitForMail(testbed.server.origin, email, "Confirm your e-mail address")));
      await main.getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/signup/passkey/create`);
      await main.getByRole("textbox", { name: "Passkey name" }).fill("Laptop");
      await main.getByRole("button", { name: "Create passkey" }).click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);

      await signOutThroughTheMenu(page);
      await page.goto(`${testbed.server.origin}/account/login`);
      await waitForHydration(page);
      await main.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      await main.getByText(email).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it("should add a security key, then ask for it after the password at the next sign-in", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await withVirtualAuthenticator(context, page);
      const email = uniqueEmail("security-key");
      await signUpAndVerify(page, testbed.server.origin, email);
      // A fresh sign-up records no authentication, so adding a factor first asks for the password.
      await logInAgain(page, email);
      await page.goto(`${testbed.server.origin}/account/2fa/webauthn/add`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "Key name" }).fill("Blue key");
      await main.locator("form button[type=submit]").click();
      await page.waitForURL((url) => url.pathname === "/account/2fa/recovery-codes" || url.pathname === "/account/2fa/webauthn");
      // Wherever the ceremony ends, the page says it worked.
      await main.getByText(/^Blue key was added\./).waitFor();

      await signOutThroughTheMenu(page);
      await logInWithPassword(page, testbed.server.origin, email);
      await page.waitForURL(`${testbed.server.origin}/account/authenticate/webauthn`);
      await waitForHydration(page);
      await main.getByRole("button").filter({ hasText: /security key|passkey/i }).first().click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    } finally {
      await context.close();
    }
  });
});

describe("given an authenticator app", () => {
  it("should ask for a code after the password; a recovery code works once and is refused the second time", { timeout: 150_000 }, async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      const email = uniqueEmail("totp");
      await signUpAndVerify(page, testbed.server.origin, email);
      await logInAgain(page, email);
      const main = page.locator("main");
      await page.goto(`${testbed.server.origin}/account/2fa/totp/activate`);
      await waitForHydration(page);
      await main.getByRole("img").first().waitFor();
      const secret = (await main.locator(".mfa-secret").textContent())?.trim() ?? "";
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
      const activationCode = await currentTotpCode(totp);
      await main.getByRole("textbox", { name: "Authenticator code" }).fill(activationCode.code);
      await main.locator("form button[type=submit]").click();
      // The recovery codes made with the first factor are shown at once (as allauth's screens do).
      await page.waitForURL(`${testbed.server.origin}/account/2fa/recovery-codes`);
      await main.getByText("Your authenticator app is active.", { exact: false }).waitFor();
      await main.locator("li code").first().waitFor();
      const recoveryCode = (await main.locator("li code").first().textContent())?.trim() ?? "";

      await signOutThroughTheMenu(page);
      await logInWithPassword(page, testbed.server.origin, email);
      await page.waitForURL(`${testbed.server.origin}/account/authenticate/totp`);
      await page.goto(`${testbed.server.origin}/account/authenticate/recovery-codes`);
      await waitForHydration(page);
      await main.getByRole("textbox", { name: "Recovery code" }).fill(recoveryCode);
      await main.locator("form button[type=submit]").click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);

      await signOutThroughTheMenu(page);
      await logInWithPassword(page, testbed.server.origin, email);
      await page.waitForURL(`${testbed.server.origin}/account/authenticate/totp`);
      await page.goto(`${testbed.server.origin}/account/authenticate/recovery-codes`);
      await waitForHydration(page);
      await main.getByRole("textbox", { name: "Recovery code" }).fill(recoveryCode);
      await main.locator("form button[type=submit]").click();
      await main.locator(".form-field__errors, .form-general-errors").first().waitFor();

      // The activation code's time step is spent: wait for the next one before signing in with the app.
      await waitForTimeStepAfter(activationCode, totp.period);
      await page.goto(`${testbed.server.origin}/account/authenticate/totp`);
      await waitForHydration(page);
      await main.getByRole("textbox", { name: "Authenticator code" }).fill((await currentTotpCode(totp)).code);
      await main.locator("form button[type=submit]").click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    } finally {
      await context.close();
    }
  });
});

describe("given a server whose authentications stay recent for 2 s", () => {
  let shortWindowServer: RunningAtelierServer;

  beforeAll(async () => {
    shortWindowServer = await startAtelierServer({ ACCOUNT_REAUTHENTICATION_TIMEOUT: "2" });
  });

  afterAll(async () => {
    await shortWindowServer?.stop();
  });

  it("should ask a TOTP user to reauthenticate for a sensitive action, and accept the authenticator app", { timeout: 150_000 }, async () => {
    const origin = shortWindowServer.origin;
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      const email = uniqueEmail("reauth-totp");
      await signUpAndVerify(page, origin, email);
      await page.context().clearCookies();
      await logInWithPassword(page, origin, email);
      await page.waitForURL(`${origin}/dashboard`);
      const main = page.locator("main");
      await page.goto(`${origin}/account/2fa/totp/activate`);
      await waitForHydration(page);
      const secret = (await main.locator(".mfa-secret").textContent())?.trim() ?? "";
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
      const activationCode = await currentTotpCode(totp);
      await main.getByRole("textbox", { name: "Authenticator code" }).fill(activationCode.code);
      await main.locator("form button[type=submit]").click();
      await page.waitForURL(`${origin}/account/2fa/recovery-codes`);

      await page.waitForTimeout(2_500);
      await page.goto(`${origin}/account/2fa/totp/deactivate`);
      await waitForHydration(page);
      await main.getByRole("button").first().click();
      await page.waitForURL((url) => url.pathname === "/account/reauthenticate" && url.searchParams.get("next") === "/account/2fa/totp/deactivate");
      await main.getByRole("link", { name: "Use your authenticator app" }).click();
      await page.waitForURL((url) => url.pathname === "/account/reauthenticate/totp");
      await waitForTimeStepAfter(activationCode, totp.period);
      await main.getByRole("textbox", { name: "Authenticator code" }).fill((await currentTotpCode(totp)).code);
      await main.locator("form button[type=submit]").click();
      await page.waitForURL(`${origin}/account/2fa/totp/deactivate`);
    } finally {
      await context.close();
    }
  });
});

async function logInAgain(page: Page, email: string) {
  await page.context().clearCookies();
  await logInWithPassword(page, testbed.server.origin, email);
  await page.waitForURL(`${testbed.server.origin}/dashboard`);
}
