import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createThisMachineOnlyMiddleware } from "./this-machine-only.ts";

function createGuardedApp() {
  const app = new Hono();
  app.use("/dev/*", createThisMachineOnlyMiddleware());
  app.get("/dev/outbox", (c) => c.json({ mails: [] }));
  return app;
}

/** What @hono/node-server hands the app for a request that arrived on a socket from `remoteAddress`. */
function socketFrom(remoteAddress: string) {
  return { incoming: { socket: { remoteAddress, remotePort: 50_000, remoteFamily: remoteAddress.includes(":") ? "IPv6" : "IPv4" } } };
}

describe("given the development pages behind the this-machine-only guard", () => {
  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1"])("should answer a request from %s to a localhost address", async (remoteAddress) => {
    const response = await createGuardedApp().request("http://localhost:3000/dev/outbox", {}, socketFrom(remoteAddress));
    expect(response.status).toBe(200);
  });

  it.each(["192.168.1.20", "203.0.113.7", "::ffff:10.0.0.5", "2001:db8::1"])("should answer 404 to a request from %s", async (remoteAddress) => {
    const response = await createGuardedApp().request("http://localhost:3000/dev/outbox", {}, socketFrom(remoteAddress));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "The development pages answer only on this machine, at a localhost address." });
  });

  it("should answer 404 to a local peer that asked for another host, as a proxy or a rebinding page would", async () => {
    const response = await createGuardedApp().request("http://atelier.example.ch/dev/outbox", {}, socketFrom("127.0.0.1"));
    expect(response.status).toBe(404);
  });

  it.each([["X-Forwarded-For", "203.0.113.7"], ["Forwarded", "for=203.0.113.7"], ["X-Real-IP", "203.0.113.7"]])(
    "should answer 404 to a request relayed by a proxy on this machine (%s)",
    async (header, value) => {
      const response = await createGuardedApp().request("http://localhost:3000/dev/outbox", { headers: { [header]: value } }, socketFrom("127.0.0.1"));
      expect(response.status).toBe(404);
    },
  );
});
