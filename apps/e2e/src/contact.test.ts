import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowserTestbed } from "./support/browser-testbed.ts";

const testbed = useBrowserTestbed();

async function fillContactForm(page: Page, message: string) {
  await page.getByRole("textbox", { name: "Name" }).fill("Ada Lovelace");
  await page.getByRole("textbox", { name: "Email" }).fill("ada@example.com");
  await page.getByRole("textbox", { name: "Message" }).fill(message);
}

async function solveCaptcha(page: Page) {
  // The real proof of work, solved by the widget in the page.
  // Its checkbox sits under a decorative tick, so the click goes to the box itself, as a finger would.
  await page.locator("altcha-widget input[type=checkbox]").click({ force: true });
  await page.waitForFunction(() => {
    const button = [...document.querySelectorAll("button[type=submit]")].find((element) => element.textContent === "Send");
    return button instanceof HTMLButtonElement && !button.disabled;
  }, undefined, { timeout: 30_000 });
}

describe("given a visitor on the contact page", () => {
  it("should keep Send disabled until the captcha is solved, then send the message to the painter's inbox", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}/contact`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
      expect(await page.getByRole("textbox", { name: "Message" }).getAttribute("rows")).toBe("5");
      await fillContactForm(page, "I would like to see Janus Unmasked in person.");
      const send = page.getByRole("button", { name: "Send" });
      expect(await send.isDisabled()).toBe(true);
      expect(await page.getByText("Please complete the captcha verification").count()).toBe(1);
      // Said in the error colour, like every other error of the form.
      const colourOf = (selector: string) => page.evaluate((target) => getComputedStyle(document.querySelector(target) as Element).color, selector);
      const dangerColour = await page.evaluate(() => {
        const probe = document.createElement("p");
        probe.className = "form-status__error";
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      });
      expect(await colourOf(".form-field__error-message")).toBe(dangerColour);

      await solveCaptcha(page);
      await send.click();
      await page.getByText("Thank you", { exact: false }).waitFor();
      expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("");
      expect(await page.getByRole("button", { name: "Send" }).isDisabled()).toBe(true);

      const outbox = (await (await fetch(`${testbed.server.origin}/dev/outbox`)).json()) as unknown;
      expect(JSON.stringify(outbox)).toContain("I would like to see Janus Unmasked in person.");
    } finally {
      await context.close();
    }
  });

  it("should show the network error when the message cannot be sent, and the server's message when refused", async () => {
    const context = await testbed.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${testbed.server.origin}/contact`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");

      await page.route("**/messages/contact/", (route) => route.abort("connectionrefused"));
      await fillContactForm(page, "First try");
      await solveCaptcha(page);
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByText("Network error. Please try again.").waitFor();
      expect(await page.getByRole("textbox", { name: "Message" }).inputValue()).toBe("First try");

      await page.unroute("**/messages/contact/");
      await page.route("**/messages/contact/", (route) =>
        route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "The inbox is full. Please phone us." }) }),
      );
      await solveCaptcha(page);
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByText("The inbox is full. Please phone us.").waitFor();

      const outbox = (await (await fetch(`${testbed.server.origin}/dev/outbox`)).json()) as unknown;
      expect(JSON.stringify(outbox)).not.toContain("First try");
    } finally {
      await context.close();
    }
  });
});
