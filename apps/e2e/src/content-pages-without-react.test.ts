import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { pathsRequestedOpening, signUpAndVerify, uniqueEmail, waitForHydration } from "./support/accounts.ts";
import { startSplitDocumentProxy } from "./support/split-document-proxy.ts";

const testbed = useBrowserTestbed();
const contentPages = ["/", "/paintings", "/janus-unmasked", "/about", "/events", "/expositions", "/privacy-policy", "/Licence"];

describe("given the portfolio's content pages, prerendered without React (issue 16)", () => {
  it("should load only the site shell's script on each, and still switch the theme and open the mobile menu", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      for (const path of contentPages) {
        const scripts = await pathsRequestedOpening(page, `${testbed.server.origin}${path}`, "script");
        expect(scripts, path).toEqual([expect.stringMatching(/^\/assets\/site-shell-[\w-]+\.js$/)]);
      }
      // No stray text before the page (a JSX comment written as '//' once printed itself above every page's header).
      for (const path of ["/", "/pricing"]) {
        await page.goto(`${testbed.server.origin}${path}`);
        await waitForHydration(page);
        const strayText = await page.evaluate(() => [...document.body.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim()).map((node) => node.textContent));
        expect(strayText, path).toEqual([]);
      }

      await page.goto(`${testbed.server.origin}/about`);
      await waitForHydration(page);
      const themeBefore = await page.evaluate(() => document.documentElement.dataset.theme);
      await page.locator(".atelier-theme-toggle").click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(themeBefore);
      await page.reload();
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(themeBefore);

      await page.getByRole("button", { name: "Open menu" }).click();
      const mobileMenu = page.getByRole("navigation", { name: "Mobile" });
      await mobileMenu.getByRole("link", { name: "Expositions" }).waitFor();
      // Log in is a button across the menu that a thumb finds, not small text under its entries.
      const logInBox = await mobileMenu.getByRole("link", { name: "Log in" }).boundingBox();
      const expositionsBox = await mobileMenu.getByRole("link", { name: "Expositions" }).boundingBox();
      expect(logInBox?.height ?? 0).toBeGreaterThanOrEqual(40);
      expect(logInBox?.width ?? 0).toBeGreaterThanOrEqual((expositionsBox?.width ?? Infinity) - 1);
      await page.keyboard.press("Escape");
      await mobileMenu.waitFor({ state: "hidden" });
    } finally {
      await context.close();
    }
  });

  it("should carry its stylesheet in the page, styled before any other request, while the app's pages fetch it (decision 0046)", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      for (const path of [...contentPages, "/contact", "/janus-unmasked/image/1", "/study"]) {
        const stylesheets = await pathsRequestedOpening(page, `${testbed.server.origin}${path}`, "stylesheet");
        const background = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--atelier-color-background").trim());
        expect(background, path).not.toBe("");
        if (path === "/study") expect(stylesheets, path).toEqual([expect.stringMatching(/^\/assets\/root-[\w-]+\.css$/)]);
        else expect(stylesheets, path).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });

  it("should paint a page first with its whole header, so a page arriving in two pieces shifts nothing, at 390 and 1366 px (CLS 0)", async () => {
    // The cut falls inside the header's actions: the theme toggle has arrived, the account and the menu button not yet.
    const proxy = await startSplitDocumentProxy(testbed.server.origin, '<div class="site-header__account">', 600);
    try {
      for (const width of [390, 1366]) {
        for (const path of ["/", "/about"]) {
          const context = await testbed.browser.newContext({ viewport: { width, height: 800 } });
          const page = await context.newPage();
          try {
            await page.addInitScript(() => {
              const record = window as unknown as { layoutShifts: number[]; menuButtonAtFirstFrame?: boolean };
              record.layoutShifts = [];
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) record.layoutShifts.push((entry as PerformanceEntry & { value: number }).value);
              }).observe({ type: "layout-shift", buffered: true });
              requestAnimationFrame(() => (record.menuButtonAtFirstFrame = document.querySelector(".site-header__menu-button") !== null));
            });
            await page.goto(`${proxy.origin}${path}`);
            await waitForHydration(page);
            const { layoutShifts, menuButtonAtFirstFrame } = await page.evaluate(() => {
              const { layoutShifts, menuButtonAtFirstFrame } = window as unknown as { layoutShifts: number[]; menuButtonAtFirstFrame?: boolean };
              return { layoutShifts, menuButtonAtFirstFrame };
            });
            expect({ width, path, menuButtonAtFirstFrame, layoutShifts }).toEqual({ width, path, menuButtonAtFirstFrame: true, layoutShifts: [] });
          } finally {
            await context.close();
          }
        }
      }
      expect(proxy.cutPages).toEqual(["/", "/about", "/", "/about"]);
    } finally {
      await proxy.close();
    }
  });

  it("should show a signed-in visitor's menu, and go into the app for Log in and Sign out", async () => {
    const context = await testbed.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}/paintings`);
      await waitForHydration(page);
      await page.locator(".site-header__account").getByRole("link", { name: "Log in" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/login?next=%2Fpaintings`);

      const email = uniqueEmail("content-pages");
      await signUpAndVerify(page, testbed.server.origin, email);
      await page.goto(`${testbed.server.origin}/paintings`);
      await waitForHydration(page);
      const account = page.locator(".site-header__account");
      await account.getByRole("button", { name: email }).click();
      await account.getByRole("link", { name: "Dashboard" }).waitFor();
      await account.getByRole("link", { name: "Sign out" }).click();
      await page.waitForURL(`${testbed.server.origin}/account/logout`);
      await waitForHydration(page);
      await page.locator("main").getByRole("button", { name: "Logout" }).click();
      await page.waitForURL(`${testbed.server.origin}/`);
    } finally {
      await context.close();
    }
  });
});
