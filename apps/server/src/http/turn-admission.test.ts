import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createServerLifecycle } from "../operations/index.ts";
import { admitRequestsInTurns, arrivalTimeOf } from "./turn-admission.ts";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Stand-ins for node:http's pair: the queue only passes them on, so each carries just its number. */
function requestNumbered(number: number): [IncomingMessage, ServerResponse] {
  return [{ number } as unknown as IncomingMessage, {} as ServerResponse];
}

describe("given requests admitted in turns of the event loop", () => {
  it("should start them in the order they came, at most the turn's number in each turn", async () => {
    const started: number[] = [];
    const lifecycle = createServerLifecycle();
    const admit = admitRequestsInTurns((incoming) => started.push((incoming as unknown as { number: number }).number), { lifecycle, requestsPerTurn: 2 });

    for (const number of [1, 2, 3, 4, 5]) admit(...requestNumbered(number));
    expect(started).toEqual([]);

    await nextTurn();
    expect(started).toEqual([1, 2]);
    // A request that comes meanwhile queues behind the ones already waiting.
    admit(...requestNumbered(6));
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4]);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("should start a request that comes alone in the turn it came in", async () => {
    const started: number[] = [];
    const admit = admitRequestsInTurns((incoming) => started.push((incoming as unknown as { number: number }).number), { lifecycle: createServerLifecycle() });
    admit(...requestNumbered(1));
    await nextTurn();
    expect(started).toEqual([1]);
  });

  it("should tell when a request came, so that the request log counts its wait", async () => {
    const [incoming, outgoing] = requestNumbered(1);
    let startedAfterArrival = Number.NaN;
    const admit = admitRequestsInTurns((started) => (startedAfterArrival = performance.now() - (arrivalTimeOf(started) ?? Number.NaN)), { lifecycle: createServerLifecycle() });
    const before = performance.now();
    admit(incoming, outgoing);
    expect(arrivalTimeOf(incoming)).toBeGreaterThanOrEqual(before);
    await nextTurn();
    expect(startedAfterArrival).toBeGreaterThanOrEqual(0);
    expect(arrivalTimeOf(requestNumbered(2)[0])).toBeUndefined();
  });

  it("should count a queued request as in progress until it starts, so that a drain waits for it", async () => {
    const lifecycle = createServerLifecycle();
    const admit = admitRequestsInTurns(() => {}, { lifecycle, requestsPerTurn: 2 });
    for (const number of [1, 2, 3]) admit(...requestNumbered(number));
    expect(lifecycle.requestsInProgress).toBe(3);
    await nextTurn();
    expect(lifecycle.requestsInProgress).toBe(1);
    await nextTurn();
    expect(lifecycle.requestsInProgress).toBe(0);
  });
});

describe("given a server whose requests are admitted in turns", () => {
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.close();
      server.closeAllConnections();
    }
  });

  it("should answer every one of many requests sent at once, each with its own answer, and leave nothing in progress", async () => {
    const lifecycle = createServerLifecycle();
    const server = http.createServer(
      admitRequestsInTurns(
        (incoming, outgoing) => {
          lifecycle.requestsInProgress += 1;
          incoming.resume();
          incoming.on("end", () => {
            lifecycle.requestsInProgress -= 1;
            outgoing.writeHead(200, { "Content-Type": "text/plain" }).end(`answer to ${incoming.url}`);
          });
        },
        { lifecycle, requestsPerTurn: 8 },
      ),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const answers = await Promise.all(Array.from({ length: 100 }, async (_, index) => (await fetch(`${base}/request-${index}`, { method: "POST", body: "é".repeat(index) })).text()));

    expect(answers).toEqual(Array.from({ length: 100 }, (_, index) => `answer to /request-${index}`));
    expect(lifecycle.requestsInProgress).toBe(0);
  });
});
