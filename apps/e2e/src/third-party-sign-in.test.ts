import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { codeInMail, logInWithPassword, signUpAndVerify, strongPassword, uniqueEmail, waitForHydration, waitForMail } from "./support/accounts.ts";
import { useBrowserTestbed } from "./support/browser-testbed.ts";

// The server starts the local OpenID provider ("Test ID (local)") itself, as in development: these tests click through
// its real login and consent pages in Chromium.

const testbed = useBrowserTestbed();

const { withPage } = testbed;

const providerButton = "Continue with Test ID (local)";

async function startFromLoginPage(page: Page): Promise<void> {
  await page.goto(`${testbed.server.origin}/account/login`);
  await waitForHydration(page);
  await page.locator("main").getByRole("button", { name: providerButton }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  expect(page.url().startsWith("http://127.0.0.1:")).toBe(true);
}

/** At the provider: pick a ready-made test user, or fill in any account; then answer the consent page. */
async function signInAtProvider(page: Page, who: { testUser: string } | { accountId: string; name: string; email: string; emailVerified: boolean }, consent: "Allow" | "Deny" = "Allow") {
  if ("testUser" in who) {
    await page.getByRole("button", { name: `Sign in as ${who.testUser}` }).click();
  } else {
    await page.getByLabel("Account id").fill(who.accountId);
    await page.getByLabel("Name").fill(who.name);
    await page.getByLabel("E-mail", { exact: true }).fill(who.email);
    if (who.emailVerified) await page.getByLabel("The provider vouches for this e-mail (email_verified)").check();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }
  await page.getByRole("heading", { name: "Share your details with Atelier?" }).waitFor();
  await page.getByRole("button", { name: consent }).click();
}

async function expectNoAccessibilityViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function connectedAccounts(page: Page): Promise<string[]> {
  await page.goto(`${testbed.server.origin}/account/providers`);
  await waitForHydration(page);
  await page.getByRole("heading", { name: /third-party accounts/i }).waitFor();
  await page.locator("main").getByRole("button", { name: "Connect Test ID (local)" }).waitFor();
  return page.locator("main table tbody tr").allTextContents();
}

describe("given the local OpenID provider", () => {
  it("should give a new user an account, and sign the same user in again from the login modal", async () => {
    await withPage(async (page) => {
      await startFromLoginPage(page);
      await signInAtProvider(page, { testUser: "Ada Lovelace" });
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      await page.locator("main").getByText("ada@example.test").first().waitFor();
      expect(await connectedAccounts(page)).toEqual([expect.stringContaining("Ada Lovelace")]);

      await page.goto(`${testbed.server.origin}/account/logout`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button", { name: "Logout" }).click();
      await page.waitForURL(`${testbed.server.origin}/`);

      await page.goto(`${testbed.server.origin}/pricing`);
      await waitForHydration(page);
      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).click();
      await page.getByRole("dialog").getByRole("button", { name: providerButton }).click();
      // The provider remembers its own session and the consent given: it sends Ada straight back.
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      // The same account: still one connected third-party account, and the same address.
      await page.locator("main").getByText("ada@example.test").first().waitFor();
      expect(await connectedAccounts(page)).toEqual([expect.stringContaining("Ada Lovelace")]);
    });
  });

  it("should ask a user whose provider gives no e-mail for one, and verify it", async () => {
    await withPage(async (page) => {
      await startFromLoginPage(page);
      await signInAtProvider(page, { testUser: "Grace Hopper" });
      await page.waitForURL(`${testbed.server.origin}/account/provider/signup`);
      await page.getByRole("heading", { name: "Complete your sign-up" }).waitFor();
      await expectNoAccessibilityViolations(page);
      const email = uniqueEmail("grace");
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
      await page.locator("main").getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/verify-email`);
      const code = codeInMail(await waitForMail(testbed.server.origin, email, "Confirm your e-mail address"));
      await page.locator("main").getByRole("textbox", { name: "Code" }).fill(code);
      await page.locator("main").getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    });
  });

  it("should send a provider e-mail that matches an existing unverified account through provider sign-up, not into that account", async () => {
    const email = uniqueEmail("unverified");
    await withPage(async (page) => {
      await page.goto(`${testbed.server.origin}/account/signup`);
      await waitForHydration(page);
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
      await page.locator("main").getByLabel("Password", { exact: true }).fill(strongPassword);
      await page.locator("main").getByLabel("Password (again)").fill(strongPassword);
      await page.locator("main").getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/verify-email`);
    });
    await withPage(async (page) => {
      await startFromLoginPage(page);
      await signInAtProvider(page, { accountId: "mallory", name: "Mallory", email, emailVerified: true });
      await page.waitForURL(`${testbed.server.origin}/account/provider/signup`);
      const field = page.locator("main").getByRole("textbox", { name: "Email" });
      expect(await field.inputValue()).toBe(email);
      await page.locator("main").getByRole("button", { name: "Sign up" }).click();
      await page.locator("main").getByText("An account already exists with this email address.", { exact: false }).waitFor();
      expect(page.url()).toBe(`${testbed.server.origin}/account/provider/signup`);
    });
  });

  it("should let a signed-in user connect a provider account, then disconnect it", async () => {
    const email = uniqueEmail("connect");
    await withPage((page) => signUpAndVerify(page, testbed.server.origin, email));
    await withPage(async (page) => {
      // A fresh password sign-in: connecting needs a recent authentication (a signup records none).
      await logInWithPassword(page, testbed.server.origin, email);
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      expect(await connectedAccounts(page)).toEqual([]);
      await page.locator("main").getByRole("button", { name: "Connect Test ID (local)" }).click();
      await signInAtProvider(page, { testUser: "Linus Torvalds" });
      await page.waitForURL(`${testbed.server.origin}/account/providers`);
      const row = page.locator("main table tbody tr");
      await row.first().waitFor();
      expect(await row.allTextContents()).toEqual([expect.stringContaining("Linus Torvalds")]);
      await expectNoAccessibilityViolations(page);
      await page.locator("main").getByRole("button", { name: "Disconnect Linus Torvalds (Test ID (local))" }).click();
      await page.locator("main").getByText("No third-party account is connected yet.").waitFor();
      expect(await connectedAccounts(page)).toEqual([]);
    });
  });

  it("should land on the failure page when the person refuses consent at the provider", async () => {
    await withPage(async (page) => {
      await startFromLoginPage(page);
      await signInAtProvider(page, { testUser: "Ada Lovelace" }, "Deny");
      await page.waitForURL(`${testbed.server.origin}/account/provider/callback?error=cancelled&error_process=login`);
      await page.getByText("Third-Party Login Failure").waitFor();
      await page.getByText("Something went wrong.").waitFor();
      await page.locator("main").getByRole("link", { name: "Continue" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/login`);
    });
  });
});
