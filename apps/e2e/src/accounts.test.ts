import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paintings } from "@atelier/catalogue";
import { startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { codeInMail, countMails, logInWithPassword, signUpAndVerify, strongPassword, uniqueEmail, waitForHydration, waitForMail } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

const { withPage } = testbed;

describe("given a new visitor", () => {
  it("should sign up, confirm the address with the e-mailed code and land on the dashboard", async () => {
    await withPage(async (page) => {
      const email = uniqueEmail("signup");
      await signUpAndVerify(page, testbed.server.origin, email);
      expect(await page.locator("main").getByText(email).count()).toBeGreaterThan(0);
      // The header now offers the user menu instead of Log in.
      expect(await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).count()).toBe(0);
    });
  });

  it("should refuse a sign-up whose passwords differ, before any call", async () => {
    await withPage(async (page) => {
      await page.goto(`${testbed.server.origin}/account/signup`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "Email" }).fill(uniqueEmail("mismatch"));
      await main.getByLabel("Password", { exact: true }).fill(strongPassword);
      await main.getByLabel("Password (again)").fill(`${strongPassword}x`);
      await main.getByRole("button", { name: "Sign up" }).click();
      await main.getByText("Password does not match.").waitFor();
    });
  });
});

describe("given a registered user", () => {
  const email = uniqueEmail("member");

  beforeAll(async () => {
    await withPage((page) => signUpAndVerify(page, testbed.server.origin, email));
  });

  it("should show the server's message for a wrong password", async () => {
    await withPage(async (page) => {
      await logInWithPassword(page, testbed.server.origin, email, "not-the-password");
      await page.locator("main").getByText("The email address and/or password you specified are not correct.").waitFor();
      expect(page.url()).toBe(`${testbed.server.origin}/account/login`);
    });
  });

  it("should sign in with an e-mailed code", async () => {
    await withPage(async (page) => {
      const before = await countMails(testbed.server.origin, email, "sign-in code");
      await page.goto(`${testbed.server.origin}/account/login`);
      await waitForHydration(page);
      await page.locator("main").getByRole("link", { name: "Send me a sign-in code" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/login/code`);
      // The router pushes the address before React commits the page: the login page's own Email field is still there.
      await page.locator("main").getByRole("heading", { name: "Sign in with a code" }).waitFor();
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
      await page.locator("main").getByRole("button", { name: "Request code" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/login/code/confirm`);
      const code = codeInMail(await waitForMail(testbed.server.origin, email, "sign-in code", before));
      await page.locator("main").getByRole("textbox", { name: "Code" }).fill(code);
      await page.locator("main").getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    });
  });

  it("should send a protected page to the login page with next, and an anonymous-only page to the dashboard", async () => {
    await withPage(async (page) => {
      await page.goto(`${testbed.server.origin}/account/sessions`);
      await waitForHydration(page);
      // The login modal is offered first; dismissing it goes to the full login page with next.
      await page.getByRole("dialog").waitFor();
      await page.keyboard.press("Escape");
      await page.waitForURL(`${testbed.server.origin}/account/login?next=${encodeURIComponent("/account/sessions")}`);
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
      await page.locator("main").getByLabel("Password").fill(strongPassword);
      await page.locator("main").getByRole("button", { name: "Log in", exact: true }).click();
      await page.waitForURL(`${testbed.server.origin}/account/sessions`);
      await page.goto(`${testbed.server.origin}/account/login`);
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    });
  });
});

describe("given a signed-in visitor on the login page with a next parameter that is not a plain path", () => {
  it.each(["/%5Cevil.example/", "/%09/evil.example/", "//evil.example/"])("should send %s to the dashboard, not to an error", async (next) => {
    await testbed.withPage(async (page) => {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("unsafe-next"));
      await page.goto(`${testbed.server.origin}/account/login?next=${next}`);
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
      await page.locator("main").getByRole("heading", { name: "Dashboard" }).waitFor();
      expect(await page.getByText("Something went wrong").count()).toBe(0);
    });
  });
});

describe("given the login modal", () => {
  it("should validate, sign in from the header and stay on the page, and confirm a reset request", async () => {
    const email = uniqueEmail("modal");
    await withPage((page) => signUpAndVerify(page, testbed.server.origin, email));
    await withPage(async (page) => {
      // The modal lives in the app's pages; content pages link to the login page instead.
      await page.goto(`${testbed.server.origin}/pricing`);
      await waitForHydration(page);
      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Continue with email" }).click();
      const submit = dialog.locator("form button[type=submit]");
      await submit.click();
      await dialog.getByText("Email is required").waitFor();
      await dialog.getByText("Password is required").waitFor();
      await dialog.getByRole("button", { name: "Sign up" }).click();
      await dialog.getByLabel("Password", { exact: true }).fill("one-password");
      await dialog.getByLabel("Confirm password").fill("another-password");
      await submit.click();
      await dialog.getByText("Passwords do not match.").waitFor();

      await dialog.getByRole("button", { name: "Log in" }).first().click();
      await dialog.getByRole("button", { name: "Forgot your password?" }).click();
      await dialog.getByRole("textbox", { name: "Email" }).fill(email);
      await dialog.getByRole("button", { name: "Reset password" }).click();
      await dialog.getByText("Check Your Email").waitFor();
      await page.keyboard.press("Escape");

      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).click();
      await dialog.getByRole("button", { name: "Continue with email" }).click();
      await dialog.getByRole("textbox", { name: "Email" }).fill(email);
      await dialog.getByLabel("Password").fill(strongPassword);
      await Promise.all([page.waitForEvent("load"), submit.click()]);
      await waitForHydration(page);
      expect(page.url()).toBe(`${testbed.server.origin}/pricing`);
      await page.locator(".site-header__account").getByRole("button", { name: email }).waitFor();
    });
  });
});

describe("given a user who forgot the password", () => {
  it("should reset it through the e-mailed link and sign in with the new one", async () => {
    await withPage(async (page) => {
      const email = uniqueEmail("reset-link");
      await signUpAndVerify(page, testbed.server.origin, email);
      await page.context().clearCookies();
      await page.goto(`${testbed.server.origin}/account/password/reset`);
      await waitForHydration(page);
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(email);
      await page.locator("main").getByRole("button", { name: "Reset password" }).click();
      await page.locator("main").getByText("Password reset sent.").waitFor();
      const mail = await waitForMail(testbed.server.origin, email, "Reset your Atelier password");
      const link = /https?:\/\/\S+\/account\/password\/reset\/key\/\S+/.exec(mail.text)?.[0];
      expect(link).toBeTruthy();
      await page.goto(link!);
      await waitForHydration(page);
      const newPassword = "Montreux-Jazz-1967!";
      await page.locator("main").getByLabel("New password", { exact: true }).fill(newPassword);
      await page.locator("main").getByLabel("New password (again)").fill(newPassword);
      await page.locator("main").getByRole("button", { name: "Set new password" }).click();
      await page.locator("main").getByText("Your password has been reset.").waitFor();
      await logInWithPassword(page, testbed.server.origin, email, newPassword);
      await page.waitForURL(`${testbed.server.origin}/dashboard`);
    });
  });

  it("should answer an unknown address exactly as a known one", async () => {
    await withPage(async (page) => {
      await page.goto(`${testbed.server.origin}/account/password/reset`);
      await waitForHydration(page);
      await page.locator("main").getByRole("textbox", { name: "Email" }).fill(uniqueEmail("nobody"));
      await page.locator("main").getByRole("button", { name: "Reset password" }).click();
      await page.locator("main").getByText("Password reset sent.").waitFor();
      await page.locator("main").getByText("If an account exists for this email address, we've sent password reset instructions to your inbox.").waitFor();
    });
  });
});

describe("given a signed-in user managing the account", () => {
  it("should change the password and land on /calculator", async () => {
    await withPage(async (page) => {
      const email = uniqueEmail("change");
      await signUpAndVerify(page, testbed.server.origin, email);
      await page.goto(`${testbed.server.origin}/account/password/change`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByLabel("Current password").fill(strongPassword);
      await main.getByLabel("New password", { exact: true }).fill("Chillon-Castle-1150!");
      await main.getByLabel("New password (again)").fill("Chillon-Castle-1150!");
      await main.getByRole("button", { name: "Change password" }).click();
      await page.waitForURL(`${testbed.server.origin}/calculator`);
      await main.getByText("Your password has been changed.", { exact: false }).waitFor();
    });
  });

  it("should add an address, verify it, make it primary and remove the old one", async () => {
    await withPage(async (page) => {
      const firstEmail = uniqueEmail("first");
      const secondEmail = uniqueEmail("second");
      await signUpAndVerify(page, testbed.server.origin, firstEmail);
      // A fresh sign-up has no recent authentication record: changing addresses asks for the password first.
      await page.goto(`${testbed.server.origin}/account/email`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "New e-mail address" }).fill(secondEmail);
      await main.getByRole("button", { name: "Add address" }).click();
      await page.waitForURL(new RegExp(`/account/reauthenticate\\?next=`));
      await main.getByLabel("Password").fill(strongPassword);
      await main.getByRole("button", { name: "Confirm" }).click();
      // Back on the page, the address typed before the reauthentication is added without typing it again.
      await page.waitForURL(`${testbed.server.origin}/account/email`);
      await main.locator(`tr[data-email="${secondEmail}"]`).getByText("Unverified", { exact: true }).waitFor();
      await main.getByRole("heading", { name: `Confirm ${secondEmail}` }).waitFor();

      // A second mail within allauth's 10 s is refused, and the page says so and when.
      await main.locator(`tr[data-email="${secondEmail}"]`).getByRole("button", { name: "Resend" }).click();
      await main.getByRole("alert").getByText(`No new message was sent to ${secondEmail}: one can be sent every 10 seconds`, { exact: false }).waitFor();

      const code = codeInMail(await waitForMail(testbed.server.origin, secondEmail, "Confirm your e-mail address"));
      await main.getByRole("textbox", { name: "Code" }).fill(code);
      await main.getByRole("button", { name: "Confirm", exact: true }).click();
      await main.getByText(`${secondEmail} is confirmed.`).waitFor();
      const secondRow = main.locator(`tr[data-email="${secondEmail}"]`);
      await secondRow.getByText("Verified", { exact: true }).waitFor();

      await secondRow.getByRole("button", { name: "Make primary" }).click();
      await secondRow.getByText("Primary", { exact: true }).waitFor();
      const firstRow = main.locator(`tr[data-email="${firstEmail}"]`);
      expect(await secondRow.getByRole("button", { name: "Remove" }).count()).toBe(0);
      await firstRow.getByRole("button", { name: "Remove" }).click();
      await firstRow.waitFor({ state: "detached" });
      expect(await main.locator("tbody tr").count()).toBe(1);
    });
  });

  it("should keep 'Log out elsewhere' disabled with one other session, and end two others with it", async () => {
    const email = uniqueEmail("three-browsers");
    const contexts = await Promise.all([testbed.browser.newContext(), testbed.browser.newContext(), testbed.browser.newContext()]);
    try {
      const [first, second, third] = await Promise.all(contexts.map((context) => context.newPage()));
      if (!first || !second || !third) throw new Error("Three pages were expected.");
      await signUpAndVerify(first, testbed.server.origin, email);
      await logInWithPassword(second, testbed.server.origin, email);
      await second.waitForURL(`${testbed.server.origin}/dashboard`);

      await first.goto(`${testbed.server.origin}/account/sessions`);
      await waitForHydration(first);
      await first.locator("main tbody tr").nth(1).waitFor();
      expect(await first.locator("main tbody tr").count()).toBe(2);
      expect(await first.locator("main").getByRole("button", { name: "Log out elsewhere" }).isDisabled()).toBe(true);

      await logInWithPassword(third, testbed.server.origin, email);
      await third.waitForURL(`${testbed.server.origin}/dashboard`);
      await first.reload();
      await waitForHydration(first);
      await first.locator("main tbody tr").nth(2).waitFor();
      await first.locator("main").getByRole("button", { name: "Log out elsewhere" }).click();
      await first.locator("main tbody tr").nth(1).waitFor({ state: "detached" });
      expect(await first.locator("main").getByRole("button", { name: "Log out elsewhere" }).isDisabled()).toBe(true);

      for (const other of [second, third]) {
        expect(await other.evaluate(async () => (await fetch("/_allauth/browser/v1/auth/session")).status)).toBe(401);
      }
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it("should find the settings overview and the study tool from the user menu, the dashboard and the footer", async () => {
    await withPage(async (page) => {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("find-the-tool"));
      const main = page.locator("main");
      await main.getByRole("link", { name: "Your subtitle groups" }).click();
      await page.waitForURL(`${testbed.server.origin}/upload-subtitles`);
      const account = page.locator(".site-header__account");
      await account.getByRole("button").first().click();
      await account.getByRole("link", { name: "Settings" }).click();
      await page.waitForURL(`${testbed.server.origin}/account`);
      await main.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      expect(await main.getByRole("link").allTextContents()).toEqual(
        expect.arrayContaining(["E-mail addresses", "Change password", "Two-factor authentication", "Sessions", "Third-party accounts", "Plans and billing", "Flashcards"]),
      );
      await account.getByRole("button").first().click();
      await account.getByRole("link", { name: "Flashcards" }).click();
      await page.waitForURL(`${testbed.server.origin}/upload-subtitles`);
      await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Learn Swedish" }).waitFor();
    });
  });

  it("should sign out from the user menu after a confirmation", async () => {
    await withPage(async (page) => {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail("sign-out"));
      const account = page.locator(".site-header__account");
      await account.getByRole("button").first().click();
      await account.getByRole("button", { name: "Sign out" }).click();
      // Cancelled first: focus goes back to the menu's button, not to the page's start.
      await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("alertdialog").waitFor({ state: "detached" });
      // The dialog gives the focus back as it closes, a moment after it leaves the page: wait for it, do not race it.
      await page.waitForFunction(() => document.activeElement?.classList.contains("user-menu__button") === true, undefined, { timeout: 5_000 });
      await account.getByRole("button").first().click();
      await account.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${testbed.server.origin}/`);
      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).waitFor();
      // The sign-out dialog traps the focus until its closing animation ends; a modal opened before that loses the
      // focus to it and closes (seen on a loaded CI machine): wait until it has left the page.
      await page.getByRole("alertdialog").waitFor({ state: "detached" });

      // The login modal, dismissed, gives the focus back to 'Log in'.
      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).click();
      await page.getByRole("dialog").waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await page.waitForFunction(() => document.activeElement?.textContent === "Log in", undefined, { timeout: 5_000 });

      // Signed out, the logout page says so instead of asking to log out.
      await page.goto(`${testbed.server.origin}/account/logout`);
      await waitForHydration(page);
      await page.locator("main").getByText("You are not signed in.").waitFor();
      expect(await page.locator("main").getByRole("button", { name: "Logout" }).count()).toBe(0);
    });
  });
});

describe("given a phone 320 to 390 px wide", () => {
  const pagesToCheck = [
    "/",
    "/paintings",
    "/bridge-to-freedom",
    "/about",
    "/expositions",
    "/contact",
    "/dashboard",
    "/account",
    "/account/email",
    "/account/sessions",
    "/account/2fa",
    "/account/providers",
    "/account/export",
    "/account/security",
    "/account/delete",
    "/pricing",
    "/upload-subtitles",
  ];
  const signedOutPagesToCheck = [
    "/",
    "/paintings",
    ...paintings.map((painting) => `/${painting.id}`),
    `/${paintings[0]!.id}/image/1`,
    "/about",
    "/events",
    "/expositions",
    "/contact",
    "/privacy-policy",
    "/Licence",
    "/no-such-page",
    "/account/login",
    "/account/signup",
    "/account/login/code",
    "/account/password/reset",
    "/account/logout",
    "/pricing",
    "/upload-subtitles",
  ];

  it("should not scroll sideways on any public page for a signed-out visitor", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 320, height: 800 } });
    try {
      const page = await context.newPage();
      const overflowing: string[] = [];
      for (const width of [320, 390]) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of signedOutPagesToCheck) {
          await page.goto(`${testbed.server.origin}${path}`);
          await waitForHydration(page);
          await page.waitForTimeout(300);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) overflowing.push(`${path} at ${width} px is ${scrollWidth} px wide`);
        }
      }
      expect(overflowing).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("should not scroll sideways on any page, signed in with a long address, and show the account in the mobile menu", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 390, height: 800 } });
    try {
      const page = await context.newPage();
      const email = uniqueEmail("a-long-address-that-would-push-the-header-off-a-phone");
      await signUpAndVerify(page, testbed.server.origin, email);
      const overflowing: string[] = [];
      for (const width of [320, 390]) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of pagesToCheck) {
          await page.goto(`${testbed.server.origin}${path}`);
          await waitForHydration(page);
          await page.locator("main").first().waitFor();
          await page.waitForTimeout(300);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          if (scrollWidth > width) overflowing.push(`${path} at ${width} px is ${scrollWidth} px wide`);
        }
      }
      expect(overflowing).toEqual([]);
      await page.goto(`${testbed.server.origin}/`);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      const mobileMenu = page.getByRole("navigation", { name: "Mobile" });
      await mobileMenu.getByText(`Signed in as ${email}`).waitFor();
      await mobileMenu.getByRole("link", { name: "Dashboard" }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe("given a server that resets passwords by code and keeps authentications recent for 2 s", () => {
  let codeServer: RunningAtelierServer;

  beforeAll(async () => {
    codeServer = await startAtelierServer({ ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: "true", ACCOUNT_REAUTHENTICATION_TIMEOUT: "2" });
  });

  afterAll(async () => {
    await codeServer?.stop();
  });

  it("should reset the password with the e-mailed code", async () => {
    await withPage(async (page) => {
      const email = uniqueEmail("reset-code");
      await signUpAndVerify(page, codeServer.origin, email);
      await page.context().clearCookies();
      await page.goto(`${codeServer.origin}/account/password/reset`);
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "Email" }).fill(email);
      await main.getByRole("button", { name: "Reset password" }).click();
      await page.waitForURL(`${codeServer.origin}/account/password/reset/confirm`);
      const code = codeInMail(await waitForMail(codeServer.origin, email, "password reset code"));
      await main.getByRole("textbox", { name: "Code" }).fill(code);
      await main.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(`${codeServer.origin}/account/password/reset/complete`);
      const newPassword = "Rochers-de-Naye-2042!";
      await main.getByLabel("New password", { exact: true }).fill(newPassword);
      await main.getByLabel("New password (again)").fill(newPassword);
      await main.getByRole("button", { name: "Set new password" }).click();
      await main.getByText("Your password has been reset.").waitFor();
      await logInWithPassword(page, codeServer.origin, email, newPassword);
      await page.waitForURL(`${codeServer.origin}/dashboard`);
    });
  });

  it("should ask for the password again for a sensitive action once the window has passed", async () => {
    await withPage(async (page) => {
      const email = uniqueEmail("reauth");
      await signUpAndVerify(page, codeServer.origin, email);
      await logInAgain(page, codeServer.origin, email);
      await page.goto(`${codeServer.origin}/account/email`);
      await waitForHydration(page);
      const main = page.locator("main");
      // Within the window the change goes through...
      await main.getByRole("textbox", { name: "New e-mail address" }).fill(uniqueEmail("extra"));
      await main.getByRole("button", { name: "Add address" }).click();
      await main.locator("tbody tr").nth(1).waitFor();
      // ...after it, the password is asked for, and the visitor comes back afterwards.
      await page.waitForTimeout(2_500);
      await main.locator("tbody tr").nth(1).getByRole("button", { name: "Remove" }).click();
      await page.waitForURL(/\/account\/reauthenticate\?next=%2Faccount%2Femail/);
      await main.getByLabel("Password").fill(strongPassword);
      await main.getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(`${codeServer.origin}/account/email`);
      await main.locator("tbody tr").nth(1).getByRole("button", { name: "Remove" }).click();
      await main.locator("tbody tr").nth(1).waitFor({ state: "detached" });
    });
  });
});

async function logInAgain(page: Page, origin: string, email: string) {
  await page.context().clearCookies();
  await logInWithPassword(page, origin, email);
  await page.waitForURL(`${origin}/dashboard`);
}
