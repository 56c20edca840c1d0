import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadConfiguration } from "../config.ts";
import { getRequestListener } from "@hono/node-server";
import type { AtelierApp } from "../create-server.ts";
import { createFrontedRequestListener, type NodeFront } from "../http/node-front.ts";

/** Headers that differ between any two answers, from the node front or from the app. */
const headersOfTheMoment = new Set(["date", "connection", "keep-alive", "x-request-id"]);

export type ParityAnswer = { status: number; headers: Record<string, string>; body: string };

/** Listens on a free port of 127.0.0.1 and answers the server's base URL. */
function listenOnLoopback(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/**
 * One request as a browser sends it, headers exactly as given (repeated ones too), over node:http; the answer without
 * the headers of the moment, a new CSRF token written `csrftoken=(new)`, and its `X-Request-Id` apart. For the node
 * front's parity tests: the same request to the app alone and to the front before it must get the same answer.
 */
export function sendForParity(
  base: string,
  target: string,
  options: { method?: string; headers?: [string, string][]; body?: string; userAgent?: string } = {},
): Promise<ParityAnswer & { requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    // Raw headers: node:http adds neither Host nor framing to them.
    const framing = options.body === undefined || options.headers?.some(([name]) => name === "Content-Length" || name === "Transfer-Encoding") ? [] : [["Content-Length", String(Buffer.byteLength(options.body))]];
    const headers = [...(options.headers ?? []), ...framing].flat();
    const request = http.request(`${base}${target}`, { method: options.method ?? "GET", headers: ["Host", new URL(base).host, ...headers, "User-Agent", options.userAgent ?? "front-parity-test"], agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const answerHeaders = Object.fromEntries(
          Object.entries(response.headers)
            .filter(([name]) => !headersOfTheMoment.has(name))
            .map(([name, value]) => [name, String(value).replace(/csrftoken=[^;]+/, "csrftoken=(new)")]),
        );
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks).toString("utf8"), requestId: response.headers["x-request-id"] as string | undefined });
      });
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

/**
 * The app served twice on loopback: alone (Hono's listener), and with `front` before it. `close()` ends both with their
 * connections.
 *
 * @example
 * const servers = await serveWithAndWithoutFront(app, { ...app.nodeFront, routes: observedRoutes });
 */
export async function serveWithAndWithoutFront(app: AtelierApp, front: NodeFront): Promise<{ appOnlyBase: string; frontedBase: string; close: () => void }> {
  const appListener = getRequestListener(app.fetch);
  const appOnly = http.createServer(appListener);
  const fronted = http.createServer(createFrontedRequestListener(front, appListener));
  const [appOnlyBase, frontedBase] = await Promise.all([listenOnLoopback(appOnly), listenOnLoopback(fronted)]);
  return {
    appOnlyBase,
    frontedBase,
    close: () => {
      for (const server of [appOnly, fronted]) {
        server.close();
        server.closeAllConnections();
      }
    },
  };
}

/** The configuration of a parity test's app: a test server with e-mail verification off, no web build, and `environment`. */
export function parityTestConfiguration(environment: Record<string, string> = {}) {
  return loadConfiguration({
    NODE_ENV: "test",
    DATA_DIR: os.tmpdir(),
    ACCOUNT_EMAIL_VERIFICATION: "none",
    WEB_BUILD_DIR: path.join(os.tmpdir(), "atelier-no-web-build"),
    ...environment,
  });
}
