import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { KnownConfiguration, localProvider } from "../providers/provider-test-support.tsx";
import { LoginModal } from "./LoginModal.tsx";
import { useLoginModalStore } from "./login-modal-store.ts";

afterEach(() => {
  cleanup();
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
