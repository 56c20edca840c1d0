import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { AllauthProvider, ProviderRedirectInput } from "@atelier/auth";
import { ProviderButtons } from "./ProviderButtons.tsx";
import { KnownConfiguration, googleProvider, localProvider, tokenOnlyProvider } from "./provider-test-support.tsx";

afterEach(cleanup);

function renderButtons(providers: AllauthProvider[] | undefined, process: "login" | "connect") {
  const startRedirect = vi.fn<(input: ProviderRedirectInput) => void>();
  const { container } = render(
    <KnownConfiguration providers={providers}>
      <ProviderButtons process={process} startRedirect={startRedirect} />
    </KnownConfiguration>,
  );
  return { startRedirect, container };
}

describe("given the provider buttons", () => {
  it("should offer one sign-in button per provider that has the redirect flow", () => {
    renderButtons([localProvider, googleProvider, tokenOnlyProvider], "login");
    const list = screen.getByRole("list", { name: "Third-party sign-in" });
    expect([...list.querySelectorAll("button")].map((button) => button.textContent)).toEqual(["Continue with Test ID (local)", "Continue with Google"]);
  });

  it("should start a login that comes back to the callback page of this site", () => {
    const { startRedirect } = renderButtons([localProvider], "login");
    fireEvent.click(screen.getByRole("button", { name: "Continue with Test ID (local)" }));
    expect(startRedirect).toHaveBeenCalledExactlyOnceWith({
      provider: "local",
      process: "login",
      callbackUrl: `${window.location.origin}/account/provider/callback`,
    });
  });

  it("should start a connection that comes back to the accounts page", () => {
    const { startRedirect } = renderButtons([localProvider, googleProvider], "connect");
    fireEvent.click(screen.getByRole("button", { name: "Connect Google" }));
    expect(startRedirect).toHaveBeenCalledExactlyOnceWith({ provider: "google", process: "connect", callbackUrl: `${window.location.origin}/account/providers` });
  });

  it("should render nothing when the server configures no provider", () => {
    expect(renderButtons([], "login").container.innerHTML).toBe("");
    cleanup();
    expect(renderButtons(undefined, "login").container.innerHTML).toBe("");
    cleanup();
    expect(renderButtons([tokenOnlyProvider], "login").container.innerHTML).toBe("");
  });
});
