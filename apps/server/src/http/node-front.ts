import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { parse as parseCookies } from "hono/utils/cookie";
import type pino from "pino";
import { logAnswer, requestIdOf } from "../logging/logger.ts";
import type { ServerLifecycle } from "../operations/index.ts";

/** What a front route sees of a request: its cookies, its headers and its socket, nothing of Hono's. */
export type FrontRequest = {
  readonly path: string;
  /** A cookie's value as Hono's `getCookie` reads it. */
  cookie(name: string): string | undefined;
  /** A header (its lower-case name) as the one value Node.js gives. */
  header(name: string): string | undefined;
  socketAddress(): string | null;
};

/**
 * A whole answer, its headers as a flat list of names and values (`["Content-Type", "application/json", …]`); the front
 * adds the security headers, `X-Request-Id` and `Content-Length`.
 */
export type FrontAnswer = { status: number; headers: readonly string[]; body: string };

/**
 * Answers a request itself, or `null` to leave it to the app, which then answers it as if the front were not there:
 * a front route answers only what it can answer exactly as the app would, without writing anything.
 */
export type FrontRoute = (request: FrontRequest) => Promise<FrontAnswer | null>;

export type NodeFront = {
  /** By exact request target (`/path`, no query): GET requests only. */
  routes: ReadonlyMap<string, FrontRoute>;
  lifecycle: ServerLifecycle;
  securityHeaders: Readonly<Record<string, string>>;
  log: pino.Logger;
};

/**
 * The node:http listener of the server: the front's routes answer the few hottest GET calls (allauth's session and
 * configuration, asked on every page of the app) before a request enters Hono, and everything else, or anything a
 * route declines, goes to the app's own listener (decision 0040).
 *
 * @example
 * serve({ fetch: app.fetch, createServer: (options, listener) => http.createServer(options, createFrontedRequestListener(app.nodeFront, listener)) });
 */
export function createFrontedRequestListener(front: NodeFront, appListener: RequestListener): RequestListener {
  const securityHeaders = Object.entries(front.securityHeaders).flat();
  return (incoming, outgoing) => {
    const route = incoming.method === "GET" ? front.routes.get(incoming.url ?? "") : undefined;
    if (route === undefined || front.lifecycle.state !== "serving" || hasBodyOrRepeatedHeader(incoming)) {
      appListener(incoming, outgoing);
      return;
    }
    void answerInFront(front, securityHeaders, route, incoming, outgoing, appListener);
  };
}

async function answerInFront(front: NodeFront, securityHeaders: readonly string[], route: FrontRoute, incoming: IncomingMessage, outgoing: ServerResponse, appListener: RequestListener): Promise<void> {
  const startedAt = performance.now();
  const path = incoming.url ?? "";
  let cookies: Record<string, string> | undefined;
  const request: FrontRequest = {
    path,
    cookie: (name) => {
      const cookieHeader = incoming.headers.cookie;
      if (cookieHeader === undefined) return undefined;
      cookies ??= parseCookies(cookieHeader);
      return cookies[name];
    },
    header: (name) => {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    socketAddress: () => incoming.socket.remoteAddress ?? null,
  };
  front.lifecycle.requestsInProgress += 1;
  let answer: FrontAnswer | null;
  try {
    answer = await route(request);
  } catch {
    // The app answers a failure its own way (a database that is away is a 503 there, logged once per outage).
    answer = null;
  } finally {
    front.lifecycle.requestsInProgress -= 1;
  }
  if (answer === null) {
    appListener(incoming, outgoing);
    return;
  }
  const requestId = requestIdOf(request.header("x-request-id"));
  // A flat list: node:http stores it as it is, where an object costs a third of this answer (measured, decision 0040).
  const headers = [...answer.headers, ...securityHeaders, "X-Request-Id", requestId, "Content-Length", String(Buffer.byteLength(answer.body))];
  if (front.lifecycle.state === "draining") headers.push("Connection", "close");
  outgoing.writeHead(answer.status, headers);
  outgoing.end(answer.body);
  logAnswer(front.log, { requestId, method: "GET", path, status: answer.status, startedAt });
}

/**
 * Node.js joins repeated Cookie headers with `; ` and keeps the first of repeated User-Agent headers, where the web
 * Request Hono reads joins both with `, `; and a GET with a body is the app's to refuse or drain. All are rare enough to
 * leave to the app.
 */
function hasBodyOrRepeatedHeader(incoming: IncomingMessage): boolean {
  if (incoming.headers["content-length"] !== undefined || incoming.headers["transfer-encoding"] !== undefined) return true;
  const rawHeaders = incoming.rawHeaders;
  let cookieHeaders = 0;
  let userAgentHeaders = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]?.toLowerCase();
    if (name === "cookie") cookieHeaders += 1;
    else if (name === "user-agent") userAgentHeaders += 1;
  }
  return cookieHeaders > 1 || userAgentHeaders > 1;
}
