import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeSubtitleParseWorkers } from "@atelier/subtitles/node";
import { describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines } from "../database/test-databases.ts";
import { securityRoles } from "./persona-client.ts";
import { bookkeepingColumns, isRefusal } from "./refusals.ts";
import { routeExpectations } from "./route-expectations.ts";
import { listRegisteredRoutes } from "./route-table.ts";
import { useSecurityWorld, createSecurityTestApp } from "./security-world.ts";

describe.each(testDatabaseEngines)("given the whole server on %s, its route table and the five roles", (engine) => {
  const worldOf = useSecurityWorld(engine);

  it("should have an expectation for every route the server registers, and no expectation for a route it does not", () => {
    const registered = listRegisteredRoutes(worldOf().app).map((route) => route.key);
    const withoutExpectation = registered.filter((key) => !Object.hasOwn(routeExpectations, key));
    const withoutRoute = Object.keys(routeExpectations).filter((key) => !registered.includes(key));
    expect(withoutExpectation, "routes the server registers that route-expectations.ts does not list: add what each role gets").toEqual([]);
    expect(withoutRoute, "route-expectations.ts lists routes the server does not register: remove them").toEqual([]);
  });

  it.each(Object.keys(routeExpectations))("should answer %s to each role as written down, show no one the owner's private data, and store nothing when it refuses", async (key) => {
    const method = key.slice(0, key.indexOf(" "));
    const { resources, personas } = worldOf();
    const ownerPrivateData = [resources.privateGroupId, "Harbour ferry (private)", personas.owner.email ?? "", resources.ownerSecondaryEmail];
    const differences: string[] = [];
    for (const routeCase of routeExpectations[key]?.cases ?? []) {
      for (const role of securityRoles) {
        const request = routeCase.request(worldOf().resources);
        const answer = await worldOf().send(role, method, request);
        const expected = routeCase.expected[role];
        // The development pages hand out what their unguessable ids unlock, and the outbox shows every mail.
        const mayShowOwnerData = role === "owner" || request.path.startsWith("/dev/");
        const sent = `${request.path} ${JSON.stringify(request.json ?? request.form ?? request.urlencoded ?? "")}`;
        const leaked = mayShowOwnerData ? [] : ownerPrivateData.filter((secret) => !sent.includes(secret) && answer.text.includes(secret));
        if (leaked.length > 0) differences.push(`${key}, ${routeCase.description}, ${role}: the answer shows the owner's ${leaked.join(", ")}`);
        if (answer.status !== expected) {
          differences.push(`${key}, ${routeCase.description}, ${role}: ${answer.status} instead of ${expected} (${answer.text.slice(0, 160)})`);
        } else if (isRefusal(method, request.path, answer.status)) {
          const changed = await worldOf().changedTables(bookkeepingColumns);
          if (changed.length > 0) differences.push(`${key}, ${routeCase.description}, ${role}: refused with ${answer.status} but changed ${changed.join(", ")}`);
        }
        await worldOf().restore();
      }
    }
    expect(differences).toEqual([]);
  });
});

describe("given the server configured for production", () => {
  it("should register no development route, and only routes the matrix knows", async () => {
    const testDatabase = await openTestDatabase("sqlite");
    const webBuildDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "atelier-security-empty-web-"));
    try {
      const app = createSecurityTestApp(testDatabase, {
        webBuildDirectory,
        environment: {
          NODE_ENV: "production",
          SECRET_KEY: "a-production-secret-for-the-security-suite-0123456789",
          SMTP_URL: "smtp://mail.example.ch:587",
          MAIL_FROM: "Atelier <atelier@example.ch>",
          PUBLIC_ORIGIN: "https://atelier.example.ch",
          STRIPE_SECRET_KEY: "sk_live_security_suite_example",
          STRIPE_WEBHOOK_SECRET: "whsec_security_suite_example",
          STRIPE_PRICE_IDS: JSON.stringify({ basic_month: "price_1", basic_year: "price_2", plus_month: "price_3", plus_year: "price_4", studio_month: "price_5", studio_year: "price_6" }),
        },
      });
      const registered = listRegisteredRoutes(app).map((route) => route.key);
      expect(registered.filter((key) => key.includes(" /dev/"))).toEqual([]);
      expect(registered.filter((key) => !Object.hasOwn(routeExpectations, key))).toEqual([]);
    } finally {
      await closeSubtitleParseWorkers();
      await testDatabase.destroy();
      fs.rmSync(webBuildDirectory, { recursive: true, force: true });
    }
  });
});
