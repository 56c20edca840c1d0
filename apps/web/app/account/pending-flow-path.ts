import { pathForPendingFlow } from "@atelier/auth";

/**
 * The page of the answer's pending flow, or null (none, or a flow without a page): after an e-mail confirmation, a
 * passkey sign-up goes on to create its passkey.
 *
 * @example
 * navigate(pendingFlowPath(result) ?? "/account/email");
 */
export function pendingFlowPath(result: Parameters<typeof pathForPendingFlow>[0]): string | null {
  try {
    return pathForPendingFlow(result);
  } catch {
    return null;
  }
}
