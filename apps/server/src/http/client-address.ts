import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The client's IP address: from the socket, or from the last `X-Forwarded-For` entry when a trusted proxy sets it.
 * Returns `null` when neither is known (for example in `app.request()` tests without a socket).
 */
export function getClientAddress(c: Context, options: { trustProxy: boolean }): string | null {
  return clientAddressFrom(c.req.header("x-forwarded-for"), () => {
    try {
      return getConnInfo(c).remote.address ?? null;
    } catch {
      return null;
    }
  }, options);
}

/** `getClientAddress` for a caller that has the `X-Forwarded-For` header and the socket's address itself. */
export function clientAddressFrom(forwardedFor: string | undefined, socketAddress: () => string | null, options: { trustProxy: boolean }): string | null {
  if (options.trustProxy) {
    // The last entry is the one our own proxy appended; earlier entries are whatever the client claimed.
    const forwardedAddress = forwardedFor?.split(",").at(-1)?.trim();
    if (forwardedAddress) {
      return forwardedAddress;
    }
  }
  return socketAddress();
}
