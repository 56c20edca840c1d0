import { afterEach, describe, expect, it, vi } from "vitest";
import { NO_SUBSCRIPTION } from "@atelier/site-api";
import { fakeBillingClient, jsonAnswer } from "./billing-test-support.tsx";
import { loadSubscriptionStatus } from "./subscription-status.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("given the subscription status loader", () => {
  it("should clear the status and log why when the call fails (spec §8)", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = fakeBillingClient({ "/user/subscription-status": jsonAnswer(500, {}) });
    await expect(loadSubscriptionStatus(client)).resolves.toEqual({ loadState: "error", status: NO_SUBSCRIPTION });
    expect(consoleError).toHaveBeenCalledOnce();
  });
});
