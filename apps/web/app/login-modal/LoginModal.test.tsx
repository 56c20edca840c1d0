import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { AllauthClient } from "@atelier/auth";
import type { ProgressMergeClient } from "@atelier/site-api";
import { KnownConfiguration, fakeAuthClient, localProvider, signedInAnswer } from "../providers/provider-test-support.tsx";
import { LoginModal } from "./LoginModal.tsx";
import { useLoginModalStore } from "./login-modal-store.ts";
import { ProgressMergeClientProvider } from "./merge-progress.ts";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useLoginModalStore.setState({ state: "closed", step: "initial", options: {} });
});

function renderOpenModal(providers: typeof localProvider[]) {
  // Opened through the state, not `open()`, which would start loading the real configuration.
  useLoginModalStore.setState({ state: "open", step: "initial", emailMode: "login", options: {} });
  render(
    <MemoryRouter>
      <KnownConfiguration providers={providers}>
        <LoginModal />
      </KnownConfiguration>
    </MemoryRouter>,
  );
  return screen.getByRole("dialog");
}

describe("given the login modal's initial step", () => {
  it("should offer the configured providers beside 'Continue with email'", () => {
    const dialog = renderOpenModal([localProvider]);
    expect(within(dialog).getByRole("button", { name: "Continue with Test ID (local)" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Continue with email" })).toBeTruthy();
  });

  it("should offer only 'Continue with email' when no provider is configured", () => {
    const dialog = renderOpenModal([]);
    expect(within(dialog).queryByRole("list", { name: "Third-party sign-in" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Continue with email" })).toBeTruthy();
  });
});

describe("given the login modal's e-mail step", () => {
  it("should sign in with the page's clients, merge the study progress, close and reload the page", async () => {
    const login = vi.fn<AllauthClient["login"]>(async () => signedInAnswer);
    const mergeAnonymousProgress = vi.fn<ProgressMergeClient["mergeAnonymousProgress"]>(async () => undefined);
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
    useLoginModalStore.setState({ state: "open", step: "email", emailMode: "login", options: {} });
    render(
      <MemoryRouter>
        <KnownConfiguration providers={[]} client={fakeAuthClient({ login })}>
          <ProgressMergeClientProvider client={{ mergeAnonymousProgress }}>
            <LoginModal />
          </ProgressMergeClientProvider>
        </KnownConfiguration>
      </MemoryRouter>,
    );
    const dialog = within(screen.getByRole("dialog"));
    fireEvent.change(dialog.getByLabelText("Email"), { target: { value: "ada@example.org" } });
    fireEvent.change(dialog.getByLabelText("Password"), { target: { value: "correct horse battery" } });
    fireEvent.click(dialog.getAllByRole("button", { name: "Log in" }).find((button) => button.getAttribute("type") === "submit") as HTMLElement);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(login).toHaveBeenCalledWith({ email: "ada@example.org", password: "correct horse battery" });
    expect(mergeAnonymousProgress).toHaveBeenCalledTimes(1);
    expect(useLoginModalStore.getState().state).toBe("closed");
  });
});
