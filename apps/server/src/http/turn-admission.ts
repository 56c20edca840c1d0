import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { ServerLifecycle } from "../operations/index.ts";

/**
 * The most requests one turn of the event loop starts (decision 0049). Measured with 200 learners on two cores: 64
 * gave 7–25 % more answers a second than starting every request read in the turn, and a lower p99 on both engines;
 * 16 and 32 gave more commits and fewer answers, 128 made a test session wait behind long turns again.
 */
export const defaultRequestsPerTurn = 64;

/** When each queued request came (`performance.now()`), for the request log: a request's time includes its wait. */
const arrivals = new WeakMap<IncomingMessage, number>();

/** When `incoming` came to the server (`performance.now()`), if it was admitted in turns; else `undefined`. */
export function arrivalTimeOf(incoming: IncomingMessage | undefined): number | undefined {
  return incoming === undefined ? undefined : arrivals.get(incoming);
}

/**
 * Starts requests in the order they arrived, at most `requestsPerTurn` of them in one turn of the event loop.
 *
 * Node.js reads a request from every connection that has one before the turn's `setImmediate` callbacks run, and the
 * group commits and batched reads of a turn (decisions 0036, 0047) run there: under load a turn held every learner's
 * request, each answer waited for all of them, and the learners, idle meanwhile, sent the next ones all at once. Here
 * the listener only queues what it is given; each turn starts the oldest requests, and the requests that arrive
 * meanwhile are read in between and queue behind them. A request alone waits for nothing: it starts in the same turn.
 *
 * A queued request counts as in progress in `lifecycle`, so a drain waits for it as for one already started, and the
 * request log counts its time from its arrival (`arrivalTimeOf`).
 *
 * @example
 * http.createServer(admitRequestsInTurns(createFrontedRequestListener(front, appListener), { lifecycle }));
 */
export function admitRequestsInTurns(listener: RequestListener, options: { lifecycle: ServerLifecycle; requestsPerTurn?: number }): RequestListener {
  const requestsPerTurn = options.requestsPerTurn ?? defaultRequestsPerTurn;
  const { lifecycle } = options;
  let queue: Array<[IncomingMessage, ServerResponse]> = [];
  let next = 0;

  function startOldest(): void {
    const batch = queue.slice(next, next + requestsPerTurn);
    next += batch.length;
    if (next === queue.length) {
      queue = [];
      next = 0;
    } else {
      if (next >= 1024) {
        // A queue that never empties under steady load lets go of what it started.
        queue = queue.slice(next);
        next = 0;
      }
      // Scheduled before the listener runs: a listener that throws (as it would have without this queue) strands nothing.
      setImmediate(startOldest);
    }
    lifecycle.requestsInProgress -= batch.length;
    for (const [incoming, outgoing] of batch) listener(incoming, outgoing);
  }

  return (incoming, outgoing) => {
    arrivals.set(incoming, performance.now());
    queue.push([incoming, outgoing]);
    lifecycle.requestsInProgress += 1;
    // The queue empties only when a turn starts its last request: a queue of one has no turn coming.
    if (queue.length === 1) setImmediate(startOldest);
  };
}
