import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { connect, type AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { clientAbortMessage, createErrorHandler, errorBodyOf, errorShapeOf, unstorableTextMessage } from "./error-responses.ts";
import { transactionConflictMessage } from "../database/transaction-conflicts.ts";
import { HttpError } from "./http-errors.ts";
import { logger } from "../logging/logger.ts";

describe("given the paths of every API", () => {
  it("should pick allauth's envelope, the study API's error field, a page for the development billing pages and message elsewhere", () => {
    expect(errorShapeOf("/_allauth/browser/v1/auth/login")).toBe("allauth");
    expect(errorShapeOf("/api/subtitle-groups/")).toBe("study");
    expect(errorShapeOf("/api/account/export/")).toBe("message");
    expect(errorShapeOf("/apiary")).toBe("message");
    expect(errorShapeOf("/dev/billing/checkout/x")).toBe("page");
    expect(errorShapeOf("/messages/contact")).toBe("message");
  });
});

describe("given an HttpError", () => {
  const refusal = new HttpError(400, "is_correct must be true or false.");
  const csrf = new HttpError(403, "CSRF verification failed: no token.", { code: "csrf_failed", fromTheServer: true });

  it("should shape an API's own refusal in that API's fields only", () => {
    expect(errorBodyOf("study", refusal)).toEqual({ error: "is_correct must be true or false." });
    expect(errorBodyOf("message", refusal)).toEqual({ message: "is_correct must be true or false." });
    expect(errorBodyOf("allauth", refusal)).toEqual({ status: 400, message: "is_correct must be true or false." });
  });

  it("should give the server's own refusals allauth's code everywhere, and the study API its error field too", () => {
    const errors = [{ message: csrf.message, code: "csrf_failed" }];
    expect(errorBodyOf("study", csrf)).toEqual({ status: 403, message: csrf.message, error: csrf.message, errors });
    expect(errorBodyOf("message", csrf)).toEqual({ status: 403, message: csrf.message, errors });
    expect(errorBodyOf("allauth", csrf)).toEqual({ status: 403, message: csrf.message, errors });
  });
});

describe("given one onError for the whole server", () => {
  function appThrowing(error: unknown) {
    const app = new Hono();
    app.onError(createErrorHandler({ renderPage: (pageError) => `<p>${pageError.message}</p>` }));
    app.all("*", () => {
      throw error;
    });
    return app;
  }

  it("should answer an HttpError with its status, headers and the path's shape", async () => {
    const response = await appThrowing(new HttpError(429, "Too many.", { headers: { "Retry-After": "7" } })).request("/api/subtitle-groups/");
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("7");
    expect(await response.json()).toEqual({ error: "Too many." });
  });

  it("should answer Hono's own HTTPException below 500 with its message", async () => {
    const response = await appThrowing(new HTTPException(400, { message: "Malformed JSON in request body" })).request("/messages/contact");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "Malformed JSON in request body" });
  });

  it("should render a page for the development billing pages, but keep the server's own refusals JSON there", async () => {
    const page = await appThrowing(new HttpError(409, "This checkout session is no longer open.")).request("/dev/billing/checkout/x");
    expect(page.status).toBe(409);
    expect(await page.text()).toBe("<p>This checkout session is no longer open.</p>");
    const csrf = await appThrowing(new HttpError(403, "CSRF verification failed.", { code: "csrf_failed", fromTheServer: true })).request("/dev/billing/checkout/x");
    expect(csrf.headers.get("content-type")).toContain("application/json");
  });

  it("should log anything else and answer a generic 500 that names nothing of it", async () => {
    const consoleError = vi.spyOn(logger, "error").mockImplementation(() => {});
    const response = await appThrowing(new Error("password=hunter2 in a stack")).request("/_allauth/browser/v1/auth/login");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { status: number; message: string };
    expect(body.status).toBe(500);
    expect(body.message).not.toContain("hunter2");
    expect(consoleError).toHaveBeenCalledOnce();
    consoleError.mockRestore();
  });

  it("should answer a deadlock that outlasted its retries with a 503 to try again in a second, and log it as a warning", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    const response = await appThrowing(new Error("The batch failed.", { cause: deadlock })).request("/api/subtitle-groups/x/");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("1");
    expect(await response.json()).toMatchObject({ error: transactionConflictMessage });
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it("should answer text PostgreSQL cannot store with a 400 naming the character, and log it as a missing check", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
    const response = await appThrowing(refused).request("/_allauth/browser/v1/account/authenticators/webauthn", { method: "PUT" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, message: unstorableTextMessage });
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});

describe("given a client that closes the connection halfway through its body", () => {
  it("should not take Node's ECONNRESET for a database that is away", async () => {
    const onDatabaseUnavailable = vi.fn();
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const app = new Hono();
    let resolveAnswer: (message: string) => void = () => {};
    const answered = new Promise<string>((resolve) => (resolveAnswer = resolve));
    app.onError((error, c) => {
      const response = createErrorHandler({ onDatabaseUnavailable })(error, c);
      void (response as Response).clone().json().then((body) => resolveAnswer((body as { message: string }).message));
      return response;
    });
    app.post("/_allauth/browser/v1/auth/login", async (c) => c.json(await c.req.json()));
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    try {
      await new Promise((resolve) => server.once("listening", resolve));
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write('POST /_allauth/browser/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"x');
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      expect(await answered).toBe(clientAbortMessage);
      expect(onDatabaseUnavailable).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      info.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
