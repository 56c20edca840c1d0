import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";
import { waitForHydration } from "./support/accounts.ts";

const testbed = useBrowserTestbed();

async function solveCaptchaAndWaitForSend(page: Page) {
  // Its checkbox sits under a decorative tick, so the click goes to the box itself, as a finger would.
  await page.locator("altcha-widget input[type=checkbox]").click({ force: true });
  await page.waitForFunction(() => [...document.querySelectorAll("button[type=submit]")].some((button) => button.textContent === "Send" && !(button as HTMLButtonElement).disabled), undefined, { timeout: 30_000 });
}

async function fillAndSend(page: Page, message: string) {
  await page.getByRole("textbox", { name: "Name" }).fill("Ada Lovelace");
  await page.getByRole("textbox", { name: "Email" }).fill("ada@example.com");
  await page.getByRole("textbox", { name: "Message" }).fill(message);
  await solveCaptchaAndWaitForSend(page);
  await page.getByRole("button", { name: "Send" }).click();
  await page.locator(".form-status").getByText("Thank you! Your message has been sent.").waitFor();
}

async function outboxText(): Promise<string> {
  return JSON.stringify((await (await fetch(`${testbed.server.origin}/dev/outbox`)).json()) as unknown);
}

describe("given /contact, prerendered without React (issue 16, decision 0038)", () => {
  it("should load only the form's script, the site shell and the ALTCHA widget, and send a message", async () => {
    await testbed.withPage(async (page) => {
      const scripts: string[] = [];
      page.on("request", (request: Request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${testbed.server.origin}/contact`);
      await waitForHydration(page);
      await page.locator("altcha-widget").waitFor();
      expect(scripts).toEqual([
        expect.stringMatching(/^\/assets\/contact-page-[\w-]+\.js$/),
        expect.stringMatching(/^\/assets\/site-shell-[\w-]+\.js$/),
        expect.stringMatching(/^\/assets\/altcha-widget-[\w-]+\.js$/),
      ]);
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);

      await fillAndSend(page, "Sent from the page without React.");
      expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("");
      expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);
      expect(await outboxText()).toContain("Sent from the page without React.");
      // React never came: the whole exchange ran on the page's own scripts (and the widget's workers, made from blobs).
      expect(scripts.filter((path) => path.startsWith("/assets/"))).toHaveLength(3);
    });
  });

  it("should show the studio's map only when the visitor asks for it", async () => {
    await testbed.withPage(async (page) => {
      // The map's provider is outside the test: its frame gets an empty page.
      await page.route("https://www.openstreetmap.org/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>map</title>" }));
      await page.goto(`${testbed.server.origin}/contact`);
      await waitForHydration(page);
      expect(await page.locator("iframe.studio-map").count()).toBe(0);
      await page.getByRole("button", { name: "Show the map" }).click();
      await page.locator('iframe.studio-map[title="Map of the studio in Clarens"]').waitFor();
    });
  });

  it("should still render and send the app's form when the visitor comes to /contact from inside the app", async () => {
    await testbed.withPage(async (page) => {
      await page.goto(`${testbed.server.origin}/pricing`);
      await waitForHydration(page);
      await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Contact" }).click();
      await page.waitForURL(`${testbed.server.origin}/contact`);
      expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
      await fillAndSend(page, "Sent from the app's own form.");
      expect(await outboxText()).toContain("Sent from the app's own form.");
    });
  });
});
