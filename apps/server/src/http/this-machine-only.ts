import { getConnInfo } from "@hono/node-server/conninfo";
import type { MiddlewareHandler } from "hono";
import { isLoopbackHostName } from "../config.ts";

const relayHeaders = ["x-forwarded-for", "x-forwarded-host", "x-real-ip", "forwarded"] as const;

function isLoopbackAddress(address: string): boolean {
  return isLoopbackHostName(address.replace(/^::ffff:/i, ""));
}

/**
 * Lets a request through only when it comes from this machine: a loopback peer, a loopback `Host`, and no sign of a
 * proxy that relayed it (a proxy on this machine makes every visitor look local). Guards the development stand-ins
 * (outbox, billing pages), which are not mounted at all on a public origin; this is the second wall, for a
 * development server that someone reaches over the network.
 *
 * @example
 * app.use("/dev/*", createThisMachineOnlyMiddleware());
 */
export function createThisMachineOnlyMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    let peerAddress: string | undefined;
    try {
      peerAddress = getConnInfo(c).remote.address;
    } catch {
      // No socket: an in-process `app.request()` call, which only this machine can make.
      peerAddress = "127.0.0.1";
    }
    const hostName = new URL(c.req.url).hostname;
    const relayed = relayHeaders.some((name) => c.req.header(name) !== undefined);
    if (peerAddress === undefined || !isLoopbackAddress(peerAddress) || !isLoopbackHostName(hostName) || relayed) {
      return c.json({ message: "The development pages answer only on this machine, at a localhost address." }, 404);
    }
    await next();
  };
}
