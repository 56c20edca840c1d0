import { readFileSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Agent, FormData, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, startAtelierServer, type RunningAtelierServer } from "./support/atelier-server.ts";
import { createSelfSignedCertificate, startNginx, type RunningNginx } from "./support/nginx.ts";
import { englishFixture, swedishFixture } from "./support/seed.ts";

import { StudyClient } from "./support/study-client.ts";

/** Not 127.0.0.1: the whole of 127/8 is loopback, so the client's address differs from nginx's own. */
const clientAddress = "127.0.0.7";

describe("given nginx terminating TLS in front of the server, with TRUST_PROXY on and an https PUBLIC_ORIGIN", () => {
  let certificate: ReturnType<typeof createSelfSignedCertificate>;
  let server: RunningAtelierServer;
  let proxy: RunningNginx;
  let agent: Agent;

  beforeAll(async () => {
    certificate = createSelfSignedCertificate();
    const proxyPort = await findFreePort();
    server = await startAtelierServer({ environment: { PUBLIC_ORIGIN: `https://localhost:${proxyPort}`, TRUST_PROXY: "true", LOCAL_OIDC_PROVIDER: "false" } });
    proxy = await startNginx({ upstreamPorts: [server.port], port: proxyPort, tls: certificate });
    agent = new Agent({ localAddress: clientAddress, connect: { ca: readFileSync(certificate.certificatePath), servername: "localhost" } });
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await proxy?.stop();
    await server?.stop();
    certificate?.remove();
  });

  it("should send HSTS and mark every cookie Secure, sign in and take an upload through the proxy", async () => {
    const browser = new StudyClient(proxy, agent);
    const page = await browser.send("GET", "/_allauth/browser/v1/config");
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");

    const email = `proxied-${Date.now()}@example.com`;
    const signup = await browser.send("POST", "/_allauth/browser/v1/auth/signup", { email, password: "correct horse battery staple" });
    expect(signup.status).toBe(200);
    const setCookies = [signup.headers["set-cookie"] ?? [], page.headers["set-cookie"] ?? []].flat();
    expect(setCookies.map((cookie) => cookie.split("=")[0]).sort()).toEqual(expect.arrayContaining(["csrftoken", "sessionid"]));
    for (const cookie of setCookies) expect(cookie).toMatch(/;\s*Secure/i);

    const signedIn = new StudyClient(proxy, agent);
    await signedIn.fetchCsrfToken();
    const login = await signedIn.send("POST", "/_allauth/browser/v1/auth/login", { email, password: "correct horse battery staple" });
    expect(login.status).toBe(200);
    expect((await signedIn.send("GET", "/_allauth/browser/v1/auth/session")).status).toBe(200);

    const form = new FormData();
    form.append("swedish", new File([swedishFixture], "Weekdays.sv.xml", { type: "text/xml" }));
    form.append("english", new File([englishFixture], "Weekdays.en.xml", { type: "text/xml" }));
    form.append("is_public", "false");
    const upload = await request(`${proxy.url}/api/upload-subtitles/`, {
      method: "POST",
      dispatcher: agent,
      headers: { cookie: signedIn.cookieHeader, origin: proxy.origin, "x-csrftoken": signedIn.cookies.get("csrftoken") ?? "" },
      body: form,
    });
    const uploaded = (await upload.body.json()) as { pair_count?: number };
    expect(upload.statusCode).toBe(201);
    expect(uploaded.pair_count).toBeGreaterThan(0);
  });

  it("should count a wrong password against the client's address from X-Forwarded-For, not nginx's and not one the client made up", async () => {
    const email = `address-${Date.now()}@example.com`;
    const browser = new StudyClient(proxy, agent);
    await browser.fetchCsrfToken();
    const attempt = await request(`${proxy.url}/_allauth/browser/v1/auth/login`, {
      method: "POST",
      dispatcher: agent,
      headers: { cookie: browser.cookieHeader, origin: proxy.origin, "x-csrftoken": browser.cookies.get("csrftoken") ?? "", "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
      body: JSON.stringify({ email, password: "not the password" }),
    });
    await attempt.body.text();
    expect(attempt.statusCode).toBe(400);
    const sqlite = new SqliteDatabase(path.join(server.dataDirectory, "atelier.sqlite"), { readonly: true });
    try {
      const addresses = sqlite.prepare("SELECT DISTINCT client_address FROM rate_limit_hit WHERE scope LIKE 'identity:%:ip'").all() as { client_address: string }[];
      expect(addresses.map((row) => row.client_address)).toEqual([clientAddress]);
    } finally {
      sqlite.close();
    }
  });
});
