import { AxeBuilder } from "@axe-core/playwright";
import * as OTPAuth from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { paintings } from "@atelier/catalogue";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { currentTotpCode, logInWithPassword, signUpAndVerify, uniqueEmail, waitForHydration } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

const publicPaths = [
  "/",
  "/paintings",
  "/about",
  "/events",
  "/expositions",
  "/contact",
  "/privacy-policy",
  "/Licence",
  "/no-such-page",
  ...paintings.map((painting) => `/${painting.id}`),
  `/${paintings[0]!.id}/image/1`,
  "/no-such-painting/image/1",
  "/account/login",
  "/account/signup",
  "/account/login/code",
  "/account/password/reset",
  "/account/logout",
  "/account/provider/error?error=cancelled&error_process=login",
  "/account/provider/callback?error=unknown&error_process=login",
  "/pricing",
  "/upload-subtitles",
];

describe.each(["light", "dark"] as const)("given the %s theme", (theme) => {
  it.each(publicPaths)("should have no accessibility violations on %s", async (path) => {
    const context = await testbed.browser.newContext();
    await context.addInitScript((themeName) => window.localStorage.setItem("theme", themeName), theme);
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}${path}`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      expect(await page.evaluate(() => document.documentElement.dataset.theme ?? "light")).toBe(theme);
      // Wait for the fade-in, so colour contrast is measured on the final colours.
      await page.waitForTimeout(350);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      const summary = results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
      expect(summary).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

const signedInPaths = ["/dashboard", "/account", "/account/email", "/account/sessions", "/account/2fa", "/account/providers", "/account/export", "/account/security", "/account/delete", "/pricing", "/upload-subtitles"];

describe.each(["light", "dark"] as const)("given a signed-in user and the %s theme", (theme) => {
  it.each([390, 1366])("should have no accessibility violations on the account screens at %s px", async (width) => {
    const context = await testbed.browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((themeName) => window.localStorage.setItem("theme", themeName), theme);
    const page = await context.newPage();
    try {
      await signUpAndVerify(page, testbed.server.origin, uniqueEmail(`axe-${theme}-${width}`));
      const violations: string[] = [];
      for (const path of signedInPaths) {
        await page.goto(`${testbed.server.origin}${path}`);
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
        await page.locator("main h1").first().waitFor();
        await page.waitForTimeout(350);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
        violations.push(...results.violations.map((violation) => `${path} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`));
      }
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

type Theme = "light" | "dark";

async function themedContext(theme: Theme, width = 1366): Promise<BrowserContext> {
  const context = await testbed.browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript((themeName) => window.localStorage.setItem("theme", themeName), theme);
  return context;
}

/** axe's violations on the page as it is now, each as "state rule: targets". */
async function violationsIn(page: Page, state: string): Promise<string[]> {
  // Wait for the fade-in and any opening animation, so colour contrast is measured on the final colours.
  await page.waitForTimeout(350);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.map((violation) => `${state} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** A subtitle file in the OpenSubtitles XML the upload form takes: one sentence a cue, two seconds apart. */
function subtitleFile(name: string, sentences: string[]) {
  const cues = sentences.map((sentence, index) => {
    const start = `00:00:${String(10 + index * 2).padStart(2, "0")},000`;
    const end = `00:00:${String(11 + index * 2).padStart(2, "0")},500`;
    const words = sentence.split(" ").map((word, wordIndex) => `<w id="${index + 1}.${wordIndex + 1}">${word}</w>`).join("");
    return `<s id="${index + 1}"><time id="T${index + 1}S" value="${start}" />${words}<time id="T${index + 1}E" value="${end}" /></s>`;
  });
  return { name, mimeType: "text/xml", buffer: Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<document id="1">${cues.join("\n")}</document>\n`) };
}

// The server refuses fewer than 10 matched pairs as two different films.
const englishLines = ["Good morning.", "Where is the station?", "I am hungry.", "Thank you very much.", "See you tomorrow.", "The lake is cold.", "It is raining again.", "Where are my keys?", "The train is late.", "Come in, please.", "What time is it?", "I like this painting.", "Good night."];
const swedishLines = ["God morgon.", "Var ligger stationen?", "Jag är hungrig.", "Tack så mycket.", "Vi ses i morgon.", "Sjön är kall.", "Det regnar igen.", "Var är mina nycklar?", "Tåget är sent.", "Kom in, tack.", "Vad är klockan?", "Jag tycker om den här tavlan.", "God natt."];

describe.each(["light", "dark"] as const)("given the %s theme and a state reached only by acting on a page", (theme) => {
  it("should have no accessibility violations with the login modal open and in the contact form's error state", async () => {
    const context = await themedContext(theme);
    const page = await context.newPage();
    try {
      const violations: string[] = [];
      // The login modal lives in the app (content pages are prerendered without React and link to the login page).
      await page.goto(`${testbed.server.origin}/pricing`);
      await waitForHydration(page);
      await page.locator(".site-header__account").getByRole("button", { name: "Log in" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Continue with email" }).waitFor();
      violations.push(...(await violationsIn(page, "login modal")));
      await page.getByRole("dialog").getByRole("button", { name: "Continue with email" }).click();
      await page.getByRole("dialog").locator("form button[type=submit]").click();
      await page.getByRole("dialog").getByText("Email is required").waitFor();
      violations.push(...(await violationsIn(page, "login modal with errors")));

      await page.goto(`${testbed.server.origin}/contact`);
      await waitForHydration(page);
      await page.route("**/messages/contact/", (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "The inbox is full. Please phone us." }) }));
      await page.getByRole("textbox", { name: "Name" }).fill("Ada Lovelace");
      await page.getByRole("textbox", { name: "Email" }).fill("ada@example.com");
      await page.getByRole("textbox", { name: "Message" }).fill("A message that will not arrive.");
      await page.locator("altcha-widget input[type=checkbox]").click({ force: true });
      const send = page.getByRole("button", { name: "Send" });
      await page.waitForFunction(() => [...document.querySelectorAll("button[type=submit]")].some((button) => button.textContent === "Send" && !(button as HTMLButtonElement).disabled), undefined, { timeout: 30_000 });
      await send.click();
      await page.getByText("The inbox is full. Please phone us.").waitFor();
      violations.push(...(await violationsIn(page, "contact error")));
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("should have no accessibility violations on the e-mail page's code step, the recovery codes, the development billing pages and the plans with a current plan", { timeout: 120_000 }, async () => {
    const context = await themedContext(theme, 390);
    const page = await context.newPage();
    const origin = testbed.server.origin;
    const main = page.locator("main");
    try {
      const violations: string[] = [];
      const email = uniqueEmail(`axe-states-${theme}`);
      await signUpAndVerify(page, origin, email);
      // A fresh sign-up records no authentication: sign in again so that adding an address or a factor needs no password.
      await context.clearCookies();
      await logInWithPassword(page, origin, email);
      await page.waitForURL(`${origin}/dashboard`);

      await page.goto(`${origin}/account/2fa/totp/activate`);
      await waitForHydration(page);
      const secret = (await main.locator(".mfa-secret").textContent())?.trim() ?? "";
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
      await main.getByRole("textbox", { name: "Authenticator code" }).fill((await currentTotpCode(totp)).code);
      await main.locator("form button[type=submit]").click();
      await page.waitForURL(`${origin}/account/2fa/recovery-codes`);
      await main.locator("li code").first().waitFor();
      violations.push(...(await violationsIn(page, "/account/2fa/recovery-codes")));

      // After the factor: allauth refuses a new factor while an address is unverified.
      const secondEmail = uniqueEmail(`axe-second-${theme}`);
      await page.goto(`${origin}/account/email`);
      await waitForHydration(page);
      await main.getByRole("textbox", { name: "New e-mail address" }).fill(secondEmail);
      await main.getByRole("button", { name: "Add address" }).click();
      await main.getByRole("heading", { name: `Confirm ${secondEmail}` }).waitFor();
      await main.getByRole("textbox", { name: "Code" }).waitFor();
      violations.push(...(await violationsIn(page, "/account/email code step")));

      await page.goto(`${origin}/pricing`);
      await waitForHydration(page);
      const planCard = (name: string) => page.locator(".plan-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
      await planCard("Plus").getByRole("button", { name: "Choose plan" }).click();
      await page.waitForURL(/\/dev\/billing\/checkout\//);
      violations.push(...(await violationsIn(page, "development checkout")));
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      await page.waitForURL(/\/checkout-success\?success=true/);
      await page.goto(`${origin}/pricing`);
      await waitForHydration(page);
      await planCard("Plus").getByText("Current plan").waitFor();
      violations.push(...(await violationsIn(page, "/pricing with a current plan")));

      await planCard("Studio").getByRole("button", { name: "Upgrade Plan" }).click();
      await page.waitForURL(/\/dev\/billing\/portal\/.*switch_price=/);
      await page.getByRole("heading", { name: /^Switch to Studio/ }).waitFor();
      violations.push(...(await violationsIn(page, "development portal: confirm the switch")));
      await page.getByRole("link", { name: "Cancel subscription" }).click();
      await page.getByRole("heading", { name: "Cancel this subscription?" }).waitFor();
      violations.push(...(await violationsIn(page, "development portal: confirm the cancellation")));
      await page.getByRole("button", { name: "Confirm cancellation" }).click();
      await page.getByText("Your subscription will end at the end of the current period", { exact: false }).waitFor();
      violations.push(...(await violationsIn(page, "development portal: cancelled")));
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("should have no accessibility violations in a study session's summary, and with the More menu open and the film's context shown", async () => {
    const context = await themedContext(theme, 390);
    const page = await context.newPage();
    const origin = testbed.server.origin;
    const main = page.locator("main");
    try {
      const violations: string[] = [];
      await signUpAndVerify(page, origin, uniqueEmail(`axe-session-${theme}`));
      await page.goto(`${origin}/upload-subtitles`);
      await waitForHydration(page);
      await main.getByRole("button", { name: "Upload subtitles" }).click();
      await main.getByLabel("Group name").fill("Everyday phrases");
      await main.getByLabel("Swedish subtitles (XML)").setInputFiles(subtitleFile("phrases.sv.xml", swedishLines));
      await main.getByLabel("English subtitles (XML)").setInputFiles(subtitleFile("phrases.en.xml", englishLines));
      await main.getByRole("button", { name: "Upload", exact: true }).click();
      const studyLink = main.getByRole("link", { name: "Study Everyday phrases" }).first();
      await studyLink.or(main.locator(".upload-form [role=alert]")).first().waitFor({ timeout: 30_000 });
      const uploadError = main.locator(".upload-form [role=alert]");
      if (await uploadError.count()) throw new Error(`The upload failed: ${await uploadError.first().textContent()}`);
      violations.push(...(await violationsIn(page, "upload result")));
      await studyLink.click();
      await main.getByRole("button", { name: "Study", exact: true }).click();
      await page.waitForURL(/\/session$/);
      await main.getByText("1 / 5").waitFor();

      await page.keyboard.press("Space");
      await main.locator("details.flashcard-menu summary").click();
      await main.getByRole("button", { name: "Delete pair" }).waitFor();
      await page.keyboard.press("c");
      await main.locator("details[open]").filter({ hasText: "Context from the film" }).waitFor();
      violations.push(...(await violationsIn(page, "session with the More menu and the context open")));
      await main.locator("details.flashcard-menu summary").click();

      for (let answered = 0; answered < 5; answered += 1) {
        await main.getByRole("progressbar").and(page.locator(`[aria-valuenow="${answered}"]`)).waitFor();
        await page.keyboard.press(answered % 2 === 0 ? "2" : "1");
      }
      await main.getByRole("heading", { name: "Session summary" }).waitFor();
      violations.push(...(await violationsIn(page, "session summary")));
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
