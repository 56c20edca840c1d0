import { AxeBuilder } from "@axe-core/playwright";

import { describe, expect, it } from "vitest";
import { paintings } from "@atelier/catalogue";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { signUpAndVerify, uniqueEmail } from "./support/accounts.ts";

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
