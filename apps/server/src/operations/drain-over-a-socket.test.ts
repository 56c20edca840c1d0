import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "../testing/spawn-atelier-server.ts";

let server: RunningAtelierServer | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

/**
 * A webhook request whose body arrives in two halves: the server must read the whole body (to check the signature),
 * so the request is in flight until the second half is sent.
 */
function startSlowWebhookRequest(running: RunningAtelierServer): { sendRest: () => void; answer: Promise<{ status: number; connection: string | undefined; body: string }> } {
  const body = JSON.stringify({ id: "evt_drain", object: "event", type: "customer.subscription.updated", padding: "x".repeat(200) });
  const request = http.request(`${running.url}/stripe/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), "Stripe-Signature": "t=1,v1=00" },
  });
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text }));
    });
    request.on("error", reject);
  });
  request.write(body.slice(0, 100));
  return { sendRest: () => request.end(body.slice(100)), answer };
}

/** A new connection, not one kept alive from an earlier request. */
async function connectionIsRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describe("given the compiled server", () => {
  it("should answer /healthz and /readyz over its port", async () => {
    server = await startAtelierServer();
    const alive = await fetch(`${server.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: "alive" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("should, on SIGTERM, answer new requests 503 without running them, finish the request in flight, then close the port and exit 0", async () => {
    server = await startAtelierServer();
    const slow = startSlowWebhookRequest(server);
    // The server has the request's head before the signal arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(server.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.isRunning()).toBe(true);
    // The port stays open while a request runs: a new request is answered, not reset, and says it did not run.
    const refused = await fetch(`${server.url}/api/subtitle-groups/`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("x-atelier-draining")).toBe("1");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ message: expect.stringContaining("did not run your request"), error: expect.stringContaining("did not run your request") });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    slow.sendRest();
    const answer = await slow.answer;
    // The webhook is refused for its made-up signature: what matters is that it was answered, not cut off.
    expect(answer.status).toBe(400);
    expect(answer.connection).toBe("close");
    expect(await server.exited).toBe(0);
    expect(await connectionIsRefused(server.port)).toBe(true);
    expect(server.output()).toMatch(/Received SIGTERM; new requests are answered 503/);
    expect(server.output()).toMatch(/Drained in \d+ ms; database and workers closed\./);
  });

  it("should, on SIGTERM, cut off a request still unfinished after 10 s and exit 0", async () => {
    server = await startAtelierServer();
    const slow = startSlowWebhookRequest(server);
    const cutOff = slow.answer.then(
      () => "answered",
      () => "cut off",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    process.kill(server.pid, "SIGTERM");
    expect(await server.exited).toBe(0);
    const seconds = (Date.now() - signalledAt) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(9.5);
    expect(seconds).toBeLessThan(14);
    expect(await cutOff).toBe("cut off");
    expect(server.output()).toMatch(/Requests were still running 10 s after SIGTERM; their connections are closed\./);
  }, 30_000);
});
