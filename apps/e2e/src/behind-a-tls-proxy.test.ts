import path from "node:path";
import { createSelfSignedCertificate, startNginx, type RunningNginx } from "@atelier/server/testing/nginx";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeInMail, strongPassword, uniqueEmail, waitForHydration, waitForMail } from "./support/accounts.ts";
import { startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { launchChromium } from "./support/chromium.ts";
import { findFreePort } from "@atelier/server/testing";

const fixturesDirectory = path.resolve(import.meta.dirname, "../../resilience/src/fixtures");

describe("given the site behind nginx terminating TLS, with TRUST_PROXY on and an https PUBLIC_ORIGIN", () => {
  let certificate: ReturnType<typeof createSelfSignedCertificate>;
  let server: RunningAtelierServer;
  let proxy: RunningNginx;
  let browser: Browser;

  beforeAll(async () => {
    certificate = createSelfSignedCertificate();
    const proxyPort = await findFreePort();
    server = await startAtelierServer({ PUBLIC_ORIGIN: `https://localhost:${proxyPort}`, TRUST_PROXY: "true", LOCAL_OIDC_PROVIDER: "false" });
    proxy = await startNginx({ upstreamPorts: [server.port], port: proxyPort, tls: certificate });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await server?.stop();
    certificate?.remove();
  });

  it("should sign up, confirm the address (which signs in) and upload in Chromium through the proxy, with HSTS and only Secure cookies", async () => {
    // The certificate is self-signed: Chromium is told to accept it, as a host with a real certificate needs not.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    try {
      const origin = proxy.origin;
      const email = uniqueEmail("proxied");
      const signupPage = await page.goto(`${origin}/account/signup`);
      expect(signupPage?.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      await waitForHydration(page);
      const main = page.locator("main");
      await main.getByRole("textbox", { name: "Email" }).fill(email);
      await main.getByLabel("Password", { exact: true }).fill(strongPassword);
      await main.getByLabel("Password (again)").fill(strongPassword);
      await main.getByRole("button", { name: "Sign up" }).click();
      await page.waitForURL(`${origin}/account/verify-email`);
      // The development outbox answers this machine only when no proxy is in between: read it from the process.
      const code = codeInMail(await waitForMail(server.url, email, "Confirm your e-mail address"));
      await main.getByRole("textbox", { name: "Code" }).fill(code);
      await main.getByRole("button", { name: "Confirm" }).click();
      await page.waitForURL(`${origin}/dashboard`);

      await page.goto(`${origin}/upload-subtitles`);
      await waitForHydration(page);
      await main.getByRole("button", { name: "Upload subtitles" }).click();
      await main.getByLabel("Group name").fill("Weekdays through the proxy");
      await main.getByLabel("Swedish subtitles (XML)").setInputFiles(path.join(fixturesDirectory, "weekdays.sv.xml"));
      await main.getByLabel("English subtitles (XML)").setInputFiles(path.join(fixturesDirectory, "weekdays.en.xml"));
      await main.getByRole("button", { name: "Upload", exact: true }).click();
      const outcome = main.getByRole("heading", { name: /^[\d,]+ sentence pairs?; / }).or(main.locator(".upload-form [role=alert]"));
      await outcome.first().waitFor({ timeout: 60_000 });
      expect(await main.locator(".upload-form [role=alert]").count()).toBe(0);

      const cookies = await context.cookies(origin);
      expect(cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(["csrftoken", "sessionid"]));
      expect(cookies.filter((cookie) => !cookie.secure).map((cookie) => cookie.name)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
