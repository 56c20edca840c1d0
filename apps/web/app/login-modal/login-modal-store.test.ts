import { afterEach, describe, expect, it, vi } from "vitest";
import { useSignOutDialogStore } from "../components/sign-out-dialog-store.ts";
import { openLoginModalForProtectedPage, useLoginModalStore } from "./login-modal-store.ts";

// The login modal loads the identity service's configuration when it opens; these tests are about when it opens, and
// have no server to ask (happy-dom's page origin would be tried, and the refused connection logged).
vi.mock("../lib/auth.ts", async (importOriginal) => ({ ...(await importOriginal<object>()), ensureAuthenticationStatusLoaded: vi.fn() }));

describe("given a protected page whose visitor is signed out", () => {
  afterEach(() => {
    useLoginModalStore.setState({ state: "closed", options: {} });
    useSignOutDialogStore.setState({ state: "closed" });
    window.history.replaceState(null, "", "/");
  });

  it("should offer the login modal for the page the visitor is on", () => {
    window.history.replaceState(null, "", "/dashboard");
    openLoginModalForProtectedPage("/dashboard");
    expect(useLoginModalStore.getState()).toMatchObject({ state: "open", options: { protectedPath: "/dashboard" } });
  });

  it("should not offer it while the visitor signs out there, nor once they have left the page", () => {
    window.history.replaceState(null, "", "/dashboard");
    useSignOutDialogStore.setState({ state: "open" });
    openLoginModalForProtectedPage("/dashboard");
    expect(useLoginModalStore.getState().state).toBe("closed");

    useSignOutDialogStore.setState({ state: "closed" });
    window.history.replaceState(null, "", "/");
    openLoginModalForProtectedPage("/dashboard?tab=decks");
    expect(useLoginModalStore.getState().state).toBe("closed");
  });
});
