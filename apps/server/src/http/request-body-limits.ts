import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { errorChainOf } from "../database/database-errors.ts";

/** Which limit and which answer shape a request body gets, decided by its path alone. */
export type RequestBodyFamily = "identity" | "study" | "contact" | "billing" | "stripe-webhook" | "development-billing" | "other";

/**
 * The most each family reads. The JSON APIs 64 KiB: their largest bodies (a passkey attestation, a contact message of
 * 5,000 characters that JSON escapes to at most ~35 KB) fit with room to spare. The study API 1 MiB: mark-studied
 * carries one id per card of a session, and a group may hold 20,000 cards (~780 KB of ids). The webhook 1 MiB: Stripe
 * documents no maximum, but an event embeds one object whose lists (invoice lines, subscription items) are cut to their
 * first page, so events weigh a few KiB to tens of KiB. Forms and everything else 16 KiB.
 */
export const requestBodyLimitBytesByFamily = {
  identity: 64 * 1024,
  study: 1024 * 1024,
  contact: 64 * 1024,
  billing: 64 * 1024,
  "stripe-webhook": 1024 * 1024,
  "development-billing": 16 * 1024,
  other: 16 * 1024,
} as const satisfies Record<RequestBodyFamily, number>;

/** How long a refused connection may still deliver bytes after the 413, and how many, before it is closed. */
export const refusedBodyLingerMilliseconds = 1_000;
export const refusedBodyLingerBytes = 4 * 1024 * 1024;

function isBelow(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The subtitle upload keeps its own, larger limit (`createUploadBodyLimit`); `null` means "not ours to limit". */
export function requestBodyFamilyOf(path: string): RequestBodyFamily | null {
  if (isBelow(path, "/api/upload-subtitles")) return null;
  if (isBelow(path, "/_allauth")) return "identity";
  if (isBelow(path, "/api")) return "study";
  if (isBelow(path, "/messages")) return "contact";
  if (isBelow(path, "/stripe/webhook")) return "stripe-webhook";
  if (isBelow(path, "/user")) return "billing";
  if (isBelow(path, "/dev/billing")) return "development-billing";
  return "other";
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/** The 413 in the family's own shape: allauth's error envelope, the study API's `error`, elsewhere `message`. */
export function requestTooLargeBodyOf(family: RequestBodyFamily): Record<string, unknown> {
  const limit = describeBytes(requestBodyLimitBytesByFamily[family]);
  switch (family) {
    case "identity": {
      const message = `The request body is larger than ${limit}, the most this endpoint accepts; send only the fields it asks for.`;
      return { status: 413, errors: [{ message, code: "request_too_large" }] };
    }
    case "study": {
      const message = `The request body is larger than ${limit}, the most the study API accepts; send fewer cards at a time.`;
      return { error: message, message };
    }
    case "contact":
      return { message: `Your message is too large to send (the limit is ${limit}). Please shorten it and try again.` };
    case "stripe-webhook":
      return { message: `The webhook body is larger than ${limit}, more than any Stripe event, and was refused without being processed.` };
    case "billing":
    case "development-billing":
    case "other":
      return { message: `The request body is larger than ${limit}, the most this address accepts; send a smaller body.` };
    default:
      return family satisfies never;
  }
}

/**
 * Node destroys a `Connection: close` socket as soon as the answer is written. A client still sending then meets a
 * reset, which may reach it before it has read the 413 (RFC 9112 §9.6): so the socket is half-closed, the bytes
 * already in flight are discarded for a moment, and it closes when the client does or the moment is over.
 */
function closeWithoutResetAfterTheAnswer(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  if (!socket || socket.destroyed) return;
  let closing = false;
  socket.destroySoon = () => {
    if (closing) return;
    closing = true;
    socket.end();
    const lingerTimer = setTimeout(() => socket.destroy(), refusedBodyLingerMilliseconds);
    lingerTimer.unref();
    socket.once("close", () => clearTimeout(lingerTimer));
    let discardedBytes = 0;
    incoming.on("data", (chunk: Buffer) => {
      discardedBytes += chunk.length;
      if (discardedBytes > refusedBodyLingerBytes) socket.destroy();
    });
  };
}

function refuse(c: Context, tooLargeBody: Record<string, unknown>): Response {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) closeWithoutResetAfterTheAnswer(incoming);
  return c.json(tooLargeBody, 413, { Connection: "close" });
}

/**
 * What a body of unknown length (chunked) gets: `gathered` reads it whole within the limit before the route runs, so
 * that what reads it first (CSRF's form field) cannot read more; `counted` counts its chunks as the route reads them,
 * keeping none, for a route that checks who sends it before it reads it.
 */
type UnknownLengthBody = "gathered" | "counted";

interface BodyLimit {
  maximumBytes: number;
  tooLargeBody: () => Record<string, unknown>;
  unknownLength: UnknownLengthBody;
}

async function limitBody(c: Context, next: () => Promise<void>, limit: BodyLimit): Promise<Response | void> {
  // Asking for `body` makes @hono/node-server build a whole web Request (and read JSON through it rather than from the
  // socket directly): only when the headers leave the size open. A GET or HEAD never has a body there.
  const method = c.req.method;
  if (method === "GET" || method === "HEAD") return next();
  const contentLength = c.req.header("content-length");
  if (contentLength !== undefined && !c.req.raw.headers.has("transfer-encoding")) {
    // Node's parser never hands over more than the announced length, so the header is the body's size.
    return Number(contentLength) > limit.maximumBytes && c.req.raw.body !== null ? refuse(c, limit.tooLargeBody()) : next();
  }
  const body = c.req.raw.body;
  if (!body) return next();
  return limit.unknownLength === "gathered" ? gatherBody(c, next, body, limit) : countBodyAsRead(c, next, body, limit);
}

async function gatherBody(c: Context, next: () => Promise<void>, body: ReadableStream<Uint8Array>, limit: BodyLimit): Promise<Response | void> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let receivedBytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    receivedBytes += value.byteLength;
    if (receivedBytes > limit.maximumBytes) return refuse(c, limit.tooLargeBody());
    chunks.push(value);
  }
  const whole = new Uint8Array(receivedBytes);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  c.req.raw = new Request(c.req.raw, { body: whole });
  return next();
}

// Gathered, an upload's body would sit in memory (11 MB) before the route had checked who sends it, for as long as its
// client takes to send it; counted, the route's read fails past the limit and that failure is answered with the 413.
async function countBodyAsRead(c: Context, next: () => Promise<void>, body: ReadableStream<Uint8Array>, limit: BodyLimit): Promise<void> {
  let receivedBytes = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        receivedBytes += chunk.byteLength;
        if (receivedBytes > limit.maximumBytes) controller.error(new RequestBodyTooLargeError(limit.maximumBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  c.req.raw = new Request(c.req.raw, { body: counted, duplex: "half" } as RequestInit);
  await next();
  if (c.error !== undefined && errorChainOf(c.error).some((error) => error instanceof RequestBodyTooLargeError)) c.res = refuse(c, limit.tooLargeBody());
}

/**
 * One body limit for a route with a limit of its own: by `Content-Length` when the request has one, else by counting the
 * chunks as the route reads them. A larger body is answered 413 with `tooLargeBody()` and `Connection: close`; what the
 * client still sends is discarded for at most a second, never kept.
 *
 * @example
 * app.use("/api/upload-subtitles/*", createBodyLimit({ maximumBytes: 11 * 1024 * 1024, tooLargeBody: () => ({ error: tooLarge, message: tooLarge }) }));
 */
export function createBodyLimit(options: { maximumBytes: number; tooLargeBody: () => Record<string, unknown> }): MiddlewareHandler {
  return async function limitOneBody(c, next) {
    return limitBody(c, next, { ...options, unknownLength: "counted" });
  };
}

/** The error a counted body fails with past its limit; `createBodyLimit` answers the route's failure with its 413. */
export class RequestBodyTooLargeError extends Error {
  constructor(maximumBytes: number) {
    super(`The request body is larger than ${maximumBytes} bytes.`);
    this.name = "RequestBodyTooLargeError";
  }
}

/**
 * Bounds every request body before anything reads it (CSRF included), with the limit of its path's family; a larger
 * body is answered 413 in the shape of the API it was sent to, as `createBodyLimit` answers. The subtitle upload is left to
 * its own limit.
 *
 * @example
 * app.use(createRequestBodyLimits());
 */
export function createRequestBodyLimits(): MiddlewareHandler {
  return async function limitRequestBody(c, next) {
    const family = requestBodyFamilyOf(c.req.path);
    if (family === null) return next();
    return limitBody(c, next, { maximumBytes: requestBodyLimitBytesByFamily[family], tooLargeBody: () => requestTooLargeBodyOf(family), unknownLength: "gathered" });
  };
}
