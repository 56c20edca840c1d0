import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { logInWithPassword, signUpAndVerify, strongPassword, uniqueEmail, waitForHydration, waitForMail } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

describe("given a signed-in user who wants their data", () => {
  it("should find 'Download your data' in the settings and download one JSON file with their account in it", async () => {
    const context = await testbed.browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    try {
      const email = uniqueEmail("data-export");
      await signUpAndVerify(page, testbed.server.origin, email);
      await page.goto(`${testbed.server.origin}/account`);
      await waitForHydration(page);
      await page.locator("main").getByRole("link", { name: "Download your data" }).click();
      await page.waitForURL(/\/account\/export$/);
      await page.locator("main").getByText("You have not uploaded any subtitles yet.").waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), page.locator("main").getByRole("link", { name: "Download my data" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^atelier-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await readFile((await download.path()) as string, "utf8"));
      expect(data.account.email_addresses).toEqual([expect.objectContaining({ email, primary: true, verified: true })]);
      expect(data.sessions.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(data)).not.toMatch(/password_hash|token_hash|argon2/);
    } finally {
      await context.close();
    }
  });
});

describe("given a signed-in user who wants to know what happened to their account", () => {
  it("should find 'Account history' in the settings and see the sign-in newest first, at a phone's width too", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("history"));
      await page.goto(`${testbed.server.origin}/account`);
      await waitForHydration(page);
      await page.locator("main").getByRole("link", { name: "Account history" }).click();
      await page.waitForURL(/\/account\/security$/);
      const table = page.getByRole("table", { name: "Your account's history, newest first" });
      await table.waitFor();
      const firstRow = table.getByRole("row").nth(1);
      expect(await firstRow.textContent()).toMatch(/Signed in/);
      // The table reflows into labelled rows on a phone: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});

describe("given a signed-in user who wants their account gone", () => {
  it("should confirm the password, take the typed address, delete the account, sign out, mail a last time and refuse the old password", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      const email = uniqueEmail("delete-me");
      await signUpAndVerify(page, testbed.server.origin, email);
      await page.goto(`${testbed.server.origin}/account`);
      await waitForHydration(page);
      await page.locator("main").getByRole("link", { name: "Delete your account" }).click();
      await page.waitForURL(/\/account\/delete$/);
      const deleteButton = page.locator("main").getByRole("button", { name: "Delete my account" });
      expect(await deleteButton.isDisabled()).toBe(true);
      const confirmation = page.locator("main").getByLabel(/Type your e-mail address/);
      await confirmation.fill("someone-else@example.com");
      expect(await deleteButton.isDisabled()).toBe(true);
      await confirmation.fill(email);
      await deleteButton.click();

      // A fresh signup has no recent authentication: the password first, then back here.
      await page.waitForURL(/\/account\/reauthenticate\?next=/);
      await page.locator("main").getByLabel("Password").fill(strongPassword);
      await page.locator("main").getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(/\/account\/delete$/);
      await page.locator("main").getByLabel(/Type your e-mail address/).fill(email);
      await page.locator("main").getByRole("button", { name: "Delete my account" }).click();

      await page.waitForURL(/\/account\/deleted$/);
      await page.getByRole("heading", { name: "Your account has been deleted" }).waitFor();
      await waitForMail(testbed.server.origin, email, "Your Atelier account was deleted");
      const session = await page.evaluate(async () => (await fetch("/_allauth/browser/v1/auth/session")).status);
      expect(session).toBe(401);

      await logInWithPassword(page, testbed.server.origin, email);
      await page.locator("main").getByText(/not correct|Invalid email or password/).first().waitFor();
      expect(page.url()).toMatch(/\/account\/login$/);
    } finally {
      await context.close();
    }
  });
});

