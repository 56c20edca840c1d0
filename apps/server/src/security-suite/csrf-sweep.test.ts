import { describe, expect, it } from "vitest";
import { csrfExemptPathPrefixes } from "../create-server.ts";
import { testDatabaseEngines } from "../database/test-databases.ts";
import { foreignOrigin, type CsrfVariant, type SecurityRole } from "./persona-client.ts";
import { routeExpectations } from "./route-expectations.ts";
import { listRegisteredRoutes } from "./route-table.ts";
import { useSecurityWorld } from "./security-world.ts";

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const brokenCsrfVariants: CsrfVariant[] = ["missing-token", "wrong-token", "foreign-origin"];
/** The owner can do the most; the anonymous visitor matters for login CSRF. */
const sweptRoles: SecurityRole[] = ["owner", "anonymous"];

function isExempt(path: string): boolean {
  return csrfExemptPathPrefixes.some((prefix) => path.startsWith(prefix));
}

function csrfFailureCode(text: string): unknown {
  try {
    return (JSON.parse(text) as { errors?: { code?: unknown }[] }).errors?.[0]?.code;
  } catch {
    return undefined;
  }
}

describe.each(testDatabaseEngines)("given the whole server on %s and a cross-site page that tries every unsafe route", (engine) => {
  const worldOf = useSecurityWorld(engine);

  it("should exempt only the app API (a header token, no cookies) and the signed Stripe webhook", () => {
    expect([...csrfExemptPathPrefixes]).toEqual(["/_allauth/app/", "/stripe/webhook"]);
  });

  it("should refuse a missing token, a wrong token and a foreign Origin on every unsafe browser route with a JSON 403, and change nothing", async () => {
    const sweptRoutes = listRegisteredRoutes(worldOf().app).filter((route) => unsafeMethods.has(route.method) && !isExempt(route.path));
    expect(sweptRoutes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of sweptRoutes) {
      for (const routeCase of routeExpectations[route.key]?.cases ?? []) {
        const request = routeCase.request(worldOf().resources);
        for (const role of sweptRoles) {
          for (const csrf of brokenCsrfVariants) {
            const answer = await worldOf().send(role, route.method, request, { csrf });
            const changed = await worldOf().changedTables();
            if (answer.status !== 403 || csrfFailureCode(answer.text) !== "csrf_failed") {
              failures.push(`${route.key} (${routeCase.description}) as ${role} with ${csrf}: ${answer.status} ${answer.text.slice(0, 120)}`);
            }
            if (changed.length > 0) failures.push(`${route.key} (${routeCase.description}) as ${role} with ${csrf} changed ${changed.join(", ")}`);
            await worldOf().restore();
          }
        }
        // The control: the same request with the right token gets past the check.
        const control = await worldOf().send("owner", route.method, request);
        if (csrfFailureCode(control.text) === "csrf_failed") failures.push(`${route.key} (${routeCase.description}): refused even with the right token`);
        await worldOf().restore();
      }
    }
    expect(failures).toEqual([]);
  });

  it("should answer every unsafe app route that carries the owner's browser cookies from a foreign page as it answers an anonymous app", async () => {
    const appRoutes = listRegisteredRoutes(worldOf().app).filter((route) => unsafeMethods.has(route.method) && route.path.startsWith("/_allauth/app/"));
    expect(appRoutes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const ownerCookies = [...worldOf().personas.owner.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    for (const route of appRoutes) {
      for (const routeCase of routeExpectations[route.key]?.cases ?? []) {
        const request = routeCase.request(worldOf().resources);
        const answer = await worldOf().send("anonymous", route.method, { ...request, headers: { ...request.headers, Cookie: ownerCookies, Origin: foreignOrigin } });
        if (answer.status !== routeCase.expected.anonymous) failures.push(`${route.key}: ${answer.status} instead of the anonymous ${routeCase.expected.anonymous}`);
        await worldOf().restore();
      }
    }
    expect(failures).toEqual([]);
  });

  it("should refuse an unsigned webhook from a foreign page with the owner's cookies and change nothing", async () => {
    const ownerCookies = [...worldOf().personas.owner.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await worldOf().send("owner", "POST", {
      path: "/stripe/webhook",
      json: { type: "customer.subscription.deleted", data: { object: { customer: worldOf().resources.ownerCustomerId } } },
      headers: { Cookie: ownerCookies, Origin: foreignOrigin },
    });
    expect(answer.status).toBe(400);
    expect(await worldOf().changedTables()).toEqual([]);
  });
});
