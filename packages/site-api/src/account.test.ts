import { describe, expect, it, vi } from "vitest";
import { ACCOUNT_DELETION_ERROR_MESSAGE, createAccountDeletionClient, createProgressMergeClient, MERGE_PROGRESS_PATH } from "./account.ts";
import { json, recordingFetch, siteHttpOver } from "./test-support/recording-fetch.ts";

describe("given the account deletion client", () => {
  it("should send DELETE /api/account/ with the CSRF header and report the deletion", async () => {
    const { requests, fetchImplementation } = recordingFetch(() => new Response(null, { status: 204 }));
    expect(await createAccountDeletionClient(siteHttpOver(fetchImplementation)).deleteAccount()).toEqual({ status: "deleted" });
    expect(requests[0]?.method).toBe("DELETE");
    expect(new URL(requests[0]?.url ?? "").pathname).toBe("/api/account/");
    expect(requests[0]?.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
  });

  it("should ask for a reauthentication when allauth's 401 lists the reauthenticate flow", async () => {
    const { fetchImplementation } = recordingFetch(() => json(401, { status: 401, data: { flows: [{ id: "reauthenticate" }, { id: "mfa_reauthenticate" }] }, meta: { is_authenticated: true } }));
    expect(await createAccountDeletionClient(siteHttpOver(fetchImplementation)).deleteAccount()).toEqual({ status: "reauthenticate" });
  });

  it("should show the server's sentence, or its own, when the deletion fails", async () => {
    const refused = recordingFetch(() => json(502, { message: "The billing provider could not be reached. Nothing was deleted." }));
    expect(await createAccountDeletionClient(siteHttpOver(refused.fetchImplementation)).deleteAccount()).toEqual({ status: "error", message: "The billing provider could not be reached. Nothing was deleted." });
    const signedOut = recordingFetch(() => json(401, { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } }));
    expect(await createAccountDeletionClient(siteHttpOver(signedOut.fetchImplementation)).deleteAccount()).toEqual({ status: "error", message: ACCOUNT_DELETION_ERROR_MESSAGE });
  });
});

describe("given the progress merge after a modal login", () => {
  it("should post with credentials, a JSON content type, the CSRF header and no body (spec §7)", async () => {
    const { requests, bodies, fetchImplementation } = recordingFetch(() => json(200, { merged: 0 }));
    await createProgressMergeClient(siteHttpOver(fetchImplementation)).mergeAnonymousProgress();
    expect(new URL(requests[0]?.url ?? "").pathname).toBe(MERGE_PROGRESS_PATH);
    expect(requests[0]?.credentials).toBe("include");
    expect(requests[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(requests[0]?.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
    expect(bodies).toEqual([undefined]);
  });

  it("should only log a failure, so the sign-in goes on", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { fetchImplementation } = recordingFetch(() => json(500, { error: "oops" }));
    await expect(createProgressMergeClient(siteHttpOver(fetchImplementation)).mergeAnonymousProgress()).resolves.toBeUndefined();
    expect(consoleError).toHaveBeenCalledOnce();
    consoleError.mockRestore();
  });
});

describe("given account answers nothing is read from", () => {
  it("should read them to their end, so that the browser frees their connections", async () => {
    const { answers, fetchImplementation } = recordingFetch(() => json(200, { merged: 0 }));
    await createProgressMergeClient(siteHttpOver(fetchImplementation)).mergeAnonymousProgress();
    expect(await createAccountDeletionClient(siteHttpOver(fetchImplementation)).deleteAccount()).toEqual({ status: "deleted" });
    expect(answers.map((answer) => answer.bodyUsed)).toEqual([true, true]);
  });
});
