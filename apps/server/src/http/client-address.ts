import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's IP address: from the socket, or from the last `X-Forwarded-For` entry when a trusted proxy sets it.
 * Returns `null` when neither is known (for example in `app.request()` tests without a socket).
 */
export function getClientAddress(c: Context, options: { trustProxy: boolean }): string | null {
  if (options.trustProxy) {
    // The last entry is the one our own proxy appended; earlier entries are whatever the client claimed.
    const forwardedAddress = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwardedAddress) {
      return forwardedAddress;
    }
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}
