import http from "node:http";
import type { AddressInfo } from "node:net";

/** Headers that differ between any two answers, from the node front or from the app. */
const headersOfTheMoment = new Set(["date", "connection", "keep-alive", "x-request-id"]);

export type ParityAnswer = { status: number; headers: Record<string, string>; body: string };

/** Listens on a free port of 127.0.0.1 and answers the server's base URL. */
export function listenOnLoopback(server: http.Server): Promise<string> {
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
