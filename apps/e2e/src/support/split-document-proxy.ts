import http from "node:http";
import type { AddressInfo } from "node:net";

export type SplitDocumentProxy = {
  origin: string;
  /** The paths of the pages sent in two pieces so far: a page without `cutAfter` passes whole, and is not listed. */
  readonly cutPages: readonly string[];
  close: () => Promise<void>;
};

/**
 * A proxy in front of `targetOrigin` that sends each HTML page in two pieces, the second `pauseMilliseconds` after the
 * first, cut just after the first `cutAfter` in the page (a slow network delivering a page as the parser reads it);
 * every other answer passes whole. Pages are asked for uncompressed, so the cut falls where the markup says.
 *
 * @example
 * const proxy = await startSplitDocumentProxy(server.origin, "</button>", 500);
 */
export async function startSplitDocumentProxy(targetOrigin: string, cutAfter: string, pauseMilliseconds: number): Promise<SplitDocumentProxy> {
  const cutPages: string[] = [];
  const proxy = http.createServer((request, response) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && !["host", "accept-encoding", "connection"].includes(name)) headers.set(name, value);
      }
      const answer = await fetch(`${targetOrigin}${request.url ?? "/"}`, { method: request.method, headers, redirect: "manual" });
      const body = Buffer.from(await answer.arrayBuffer());
      const passedHeaders: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)) passedHeaders[name] = value;
      });
      const cut = (answer.headers.get("content-type") ?? "").startsWith("text/html") ? body.indexOf(cutAfter) : -1;
      response.writeHead(answer.status, passedHeaders);
      if (cut < 0) {
        response.end(body);
        return;
      }
      cutPages.push(request.url ?? "/");
      response.write(body.subarray(0, cut + cutAfter.length));
      await new Promise((resolve) => setTimeout(resolve, pauseMilliseconds));
      response.end(body.subarray(cut + cutAfter.length));
    })().catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "localhost", resolve));
  return {
    origin: `http://localhost:${(proxy.address() as AddressInfo).port}`,
    cutPages,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}
