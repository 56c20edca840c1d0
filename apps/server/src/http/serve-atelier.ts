import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { AtelierApp } from "../create-server.ts";
import { createFrontedRequestListener } from "./node-front.ts";
import { admitRequestsInTurns } from "./turn-admission.ts";

/**
 * Serves the app over node:http with its node front before Hono (decision 0040), the requests started in the order they
 * came, at most 64 in a turn of the event loop (decision 0049): what `main.ts` runs, and what the benchmarks and socket
 * tests measure.
 *
 * @example
 * const server = serveAtelier(app, { port: 3000, hostname: "0.0.0.0" }, () => logger.info("listening"));
 */
export function serveAtelier(app: AtelierApp, options: { port: number; hostname?: string }, onListening?: (address: AddressInfo) => void): http.Server {
  return serve(
    {
      fetch: app.fetch,
      port: options.port,
      hostname: options.hostname,
      createServer: ((serverOptions: http.ServerOptions, appListener: http.RequestListener) =>
        http.createServer(serverOptions, admitRequestsInTurns(createFrontedRequestListener(app.nodeFront, appListener), { lifecycle: app.nodeFront.lifecycle }))) as typeof http.createServer,
    },
    onListening,
  ) as http.Server;
}
