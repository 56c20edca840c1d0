import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { parse as parseCookies } from "hono/utils/cookie";
import type pino from "pino";
import { logAnswer, requestIdOf } from "../logging/logger.ts";
import type { ServerLifecycle } from "../operations/index.ts";
import { arrivalTimeOf } from "./turn-admission.ts";

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

/** A POST request as a front route sees it: its whole body (small, read before the route runs) and its path's match. */
export type FrontPostRequest = FrontRequest & { readonly body: Buffer; readonly pathMatch: RegExpExecArray };

/**
 * Answers a POST, or `null` to leave it, body included, to the app. Unlike a GET route it may write, but it decides to
 * answer before its first write; after that it answers its own failures (the app would count or rate a second time).
 */
export type FrontPostRoute = (request: FrontPostRequest) => Promise<FrontAnswer | null>;

/** The most a body answered in the front may weigh; a larger one goes to the app with its usual limits unread. */
export const frontBodyLimitBytes = 4 * 1024;

export type NodeFront = {
  /** By exact request target (`/path`, no query): GET requests only. */
  routes: ReadonlyMap<string, FrontRoute>;
  /** POST requests whose whole request target (query included) matches `target`. */
  postRoutes: ReadonlyArray<{ target: RegExp; route: FrontPostRoute }>;
  lifecycle: ServerLifecycle;
  securityHeaders: Readonly<Record<string, string>>;
  log: pino.Logger;
};

/**
 * The node:http listener of the server: the front's routes answer the few hottest calls before a request enters Hono
 * (allauth's session and configuration, asked on every page of the app, decision 0040; a card's rating, decision 0048),
 * and everything else, or anything a route declines, goes to the app's own listener.
 *
 * @example
 * serve({ fetch: app.fetch, createServer: (options, listener) => http.createServer(options, createFrontedRequestListener(app.nodeFront, listener)) });
 */
export function createFrontedRequestListener(front: NodeFront, appListener: RequestListener): RequestListener {
  const securityHeaders = Object.entries(front.securityHeaders).flat();
  return (incoming, outgoing) => {
    if (incoming.method === "POST" && front.postRoutes.length > 0) {
      const target = incoming.url ?? "";
      for (const { target: pattern, route } of front.postRoutes) {
        const pathMatch = pattern.exec(target);
        if (pathMatch === null) continue;
        if (front.lifecycle.state !== "serving" || !hasSmallBody(incoming) || hasRepeatedHeader(incoming)) break;
        void answerPostInFront(front, securityHeaders, route, pathMatch, incoming, outgoing, appListener);
        return;
      }
      appListener(incoming, outgoing);
      return;
    }
    const route = incoming.method === "GET" ? front.routes.get(incoming.url ?? "") : undefined;
    if (route === undefined || front.lifecycle.state !== "serving" || hasBody(incoming) || hasRepeatedHeader(incoming)) {
      appListener(incoming, outgoing);
      return;
    }
    void answerInFront(front, securityHeaders, route, incoming, outgoing, appListener);
  };
}

/**
 * Reads a POST's small body, then lets the route answer. The body is kept where @hono/node-server reads it first
 * (`rawBody`), so a request the route leaves reaches the app exactly as sent.
 */
async function answerPostInFront(front: NodeFront, securityHeaders: readonly string[], route: FrontPostRoute, pathMatch: RegExpExecArray, incoming: IncomingMessage, outgoing: ServerResponse, appListener: RequestListener): Promise<void> {
  front.lifecycle.requestsInProgress += 1;
  let body: Buffer;
  try {
    body = await readWholeBody(incoming);
  } catch {
    // The client went away or sent less than it announced: the app's own reading meets the same and answers it.
    appListener(incoming, outgoing);
    return;
  } finally {
    front.lifecycle.requestsInProgress -= 1;
  }
  (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  // The two fields set on the request rather than spread into a copy: V8 took over a microsecond for that spread.
  await answerInFront(front, securityHeaders, (request) => route(Object.assign(request, { body, pathMatch })), incoming, outgoing, appListener);
}

function readWholeBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.once("end", () => resolve(Buffer.concat(chunks)));
    incoming.once("error", reject);
    incoming.once("aborted", () => reject(new Error("The client closed the request before its body was read.")));
  });
}

async function answerInFront(front: NodeFront, securityHeaders: readonly string[], route: FrontRoute, incoming: IncomingMessage, outgoing: ServerResponse, appListener: RequestListener): Promise<void> {
  const startedAt = arrivalTimeOf(incoming) ?? performance.now();
  const path = incoming.url ?? "";
  const method = incoming.method ?? "GET";
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
  logAnswer(front.log, { requestId, method, path, status: answer.status, startedAt });
}

/** A GET with a body is the app's to refuse or drain. */
function hasBody(incoming: IncomingMessage): boolean {
  return incoming.headers["content-length"] !== undefined || incoming.headers["transfer-encoding"] !== undefined;
}

/** A body of announced length, at most `frontBodyLimitBytes` (Node's parser hands over no more than announced). */
function hasSmallBody(incoming: IncomingMessage): boolean {
  const contentLength = incoming.headers["content-length"];
  if (contentLength === undefined || incoming.headers["transfer-encoding"] !== undefined || !/^\d{1,5}$/.test(contentLength)) return false;
  return Number(contentLength) <= frontBodyLimitBytes;
}

/**
 * Node.js joins repeated Cookie headers with `; ` and keeps the first of repeated User-Agent headers, where the web
 * Request Hono reads joins both with `, `: rare enough to leave to the app.
 */
function hasRepeatedHeader(incoming: IncomingMessage): boolean {
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
