import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAtelierServer, type RunningAtelierServer } from "../testing/spawn-atelier-server.ts";

const csrfToken = "abcdefghijklmnopqrstuvwxyz012345";
const megabyte = 1024 * 1024;
let server: RunningAtelierServer;
let baseUrl: string;
let testOrigin: string;

// The server runs in its own process, as in production: in this one, the client could read the answer before a reset
// from the server is even processed, and the test would pass whatever the server does.
beforeAll(async () => {
  process.env.ATELIER_SERVER_FROM_SOURCE = "1";
  server = await startAtelierServer();
  baseUrl = server.url;
  testOrigin = server.origin;
}, 60_000);
afterAll(async () => {
  await server.stop();
});

function residentBytesOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((candidate) => candidate.startsWith("VmRSS:")) ?? "VmRSS: 0 kB";
  return Number(line.replace(/\D+/g, "")) * 1024;
}

/** `totalBytes` of one reused 64 KiB chunk: the client itself holds no more than that, whatever the total. */
function countingStream(totalBytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const progress = { pulledBytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (progress.pulledBytes >= totalBytes) {
        controller.close();
        return;
      }
      progress.pulledBytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, progress };
}

/** Sends `totalBytes` with a Content-Length through node:http, stopping when the answer arrives, as curl does. */
function postWithContentLength(url: string, totalBytes: number, headers: Record<string, string>): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const request = http.request(`${baseUrl}${url}`, { method: "POST", headers: { ...headers, "Content-Length": String(totalBytes) } });
    let sentBytes = 0;
    let answered = false;
    const writeMore = () => {
      while (!answered && sentBytes < totalBytes) {
        sentBytes += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", writeMore);
          return;
        }
      }
    };
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body });
        request.destroy();
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    writeMore();
  });
}

describe("given the server listening on a real socket", () => {
  it("should refuse a 400 MB chunked sign-in form with a 413 the client reads, and stop reading it with the memory growing by less than 10 MB (about 2 MB measured)", async () => {
    const residentBefore = residentBytesOf(server.pid);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { stream, progress } = countingStream(400 * megabyte);
      const response = await fetch(`${baseUrl}/_allauth/browser/v1/auth/login`, {
        method: "POST",
        headers: { Origin: testOrigin, Cookie: `csrftoken=${csrfToken}`, "Content-Type": "multipart/form-data; boundary=x" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(response.headers.get("connection")).toBe("close");
      expect(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe("request_too_large");
      expect(progress.pulledBytes).toBeLessThan(64 * megabyte);
    }
    expect(residentBytesOf(server.pid) - residentBefore).toBeLessThan(10 * megabyte);
  });

  it("should refuse a 600 MB webhook announced by Content-Length with 413, not 500", async () => {
    const answer = await postWithContentLength("/stripe/webhook", 600 * megabyte, { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=x" });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({ message: expect.stringContaining("1 MB") });
  });

  it("should answer a 10 MB contact message with a 413 and a message the page can show, not a closed socket", async () => {
    const answer = await postWithContentLength("/messages/contact/", 10 * megabyte, { Origin: testOrigin, Cookie: `csrftoken=${csrfToken}`, "X-CSRFToken": csrfToken, "Content-Type": "application/json" });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: expect.stringContaining("Please shorten it") });
  });
});
