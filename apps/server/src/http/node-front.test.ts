import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger.ts";
import { createServerLifecycle } from "../operations/index.ts";
import { createFrontedRequestListener, type FrontRoute, type NodeFront } from "./node-front.ts";

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.close();
    server.closeAllConnections();
  }
});

const answeredByTheApp = "answered by the app";

async function startFrontedServer(routes: Record<string, FrontRoute>, lifecycle = createServerLifecycle()) {
  const lines: Record<string, unknown>[] = [];
  const front: NodeFront = {
    routes: new Map(Object.entries(routes)),
    postRoutes: [],
    lifecycle,
    securityHeaders: { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'self'" },
    log: createLogger({ level: "info", destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } }),
  };
  const server = http.createServer(createFrontedRequestListener(front, (_incoming, outgoing) => outgoing.writeHead(200, { "Content-Type": "text/plain" }).end(answeredByTheApp)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
}

describe("given a node front with one route", () => {
  it("should send the route's answer with the security headers, its length and a request id, and log it", async () => {
    const { base, lines } = await startFrontedServer({ "/hot": async () => ({ status: 200, headers: ["Content-Type", "application/json"], body: '{"ré":1}' }) });
    const response = await fetch(`${base}/hot`, { headers: { "X-Request-Id": "proxy-7" } });
    expect(await response.text()).toBe('{"ré":1}');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/json",
      "content-length": "9",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'self'",
      "x-request-id": "proxy-7",
    });
    expect(lines).toEqual([expect.objectContaining({ requestId: "proxy-7", method: "GET", path: "/hot", status: 200, milliseconds: expect.any(Number) })]);
  });

  it("should hand a request to the app when the route declines it or fails", async () => {
    const { base } = await startFrontedServer({
      "/declined": async () => null,
      "/failing": async () => {
        throw new Error("The database is away.");
      },
    });
    expect(await (await fetch(`${base}/declined`)).text()).toBe(answeredByTheApp);
    expect(await (await fetch(`${base}/failing`)).text()).toBe(answeredByTheApp);
  });

  it("should close the connection after an answer finished while the server began to drain", async () => {
    const lifecycle = createServerLifecycle();
    const { base } = await startFrontedServer(
      {
        "/slow": async () => {
          lifecycle.state = "draining";
          return { status: 200, headers: [], body: "" };
        },
      },
      lifecycle,
    );
    const response = await fetch(`${base}/slow`);
    expect(response.headers.get("connection")).toBe("close");
    expect(lifecycle.requestsInProgress).toBe(0);
  });
});
