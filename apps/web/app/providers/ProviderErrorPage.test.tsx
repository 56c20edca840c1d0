import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { ProviderErrorPage } from "./ProviderErrorPage.tsx";

afterEach(cleanup);

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/account/provider/error" element={<ProviderErrorPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("given the provider error page", () => {
  it("should show the failure of spec §8 and a Continue link to the login page for a lost state", () => {
    renderAt("/account/provider/error?error=unknown&error_process=login");
    expect(screen.getByRole("heading", { level: 1, name: "Third-Party Login Failure" })).toBeTruthy();
    expect(screen.getByText("Something went wrong.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Continue" }).getAttribute("href")).toBe("/account/login");
    expect(document.querySelector("[data-error-code]")).toBeNull();
  });

  it("should explain a code it knows", () => {
    renderAt("/account/provider/error?error=cancelled&error_process=login");
    expect(screen.getByText("The sign-in was cancelled at the provider.")).toBeTruthy();
  });

  it("should still show the failure without any parameter", () => {
    renderAt("/account/provider/error");
    expect(screen.getByRole("heading", { level: 1, name: "Third-Party Login Failure" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Continue" }).getAttribute("href")).toBe("/account/login");
  });
});
