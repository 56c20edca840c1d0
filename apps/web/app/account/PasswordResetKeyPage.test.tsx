import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { AllauthClient } from "@atelier/auth";
import { fakeAuthClient, SignedInAs } from "./account-test-support.tsx";
import { checkPasswordResetKey, PasswordResetKeyPage } from "./PasswordResetKeyPage.tsx";

afterEach(cleanup);

type KeyInfoAnswer = Awaited<ReturnType<AllauthClient["getPasswordResetKeyInfo"]>>;
const answering = (answer: KeyInfoAnswer | Error) =>
  fakeAuthClient({ getPasswordResetKeyInfo: async () => (answer instanceof Error ? Promise.reject(answer) : answer) });

describe("given the reset link's loader", () => {
  it("should take a key the server knows for a valid link, and a refusal or a failed call for an invalid one", async () => {
    expect(await checkPasswordResetKey(answering({ status: 200, data: {} }), "k")).toEqual({ state: "valid" });
    expect(await checkPasswordResetKey(answering({ status: 400, errors: [{ message: "The password reset token was invalid.", code: "invalid_password_reset", param: "key" }] }), "k")).toEqual({ state: "invalid" });
    expect(await checkPasswordResetKey(answering(new Error("offline")), "k")).toEqual({ state: "invalid" });
  });
});

describe("given the reset link's page", () => {
  function renderPage(state: "valid" | "invalid") {
    const client = answering({ status: 200, data: {} });
    render(
      <SignedInAs client={client}>
        <MemoryRouter>
          <PasswordResetKeyPage resetKey="k" data={{ state }} />
        </MemoryRouter>
      </SignedInAs>,
    );
  }

  it("should ask for the new password twice for a valid link", () => {
    renderPage("valid");
    expect(screen.getByLabelText("New password")).toBeTruthy();
    expect(screen.getByLabelText("New password (again)")).toBeTruthy();
  });

  it("should offer a new request for an invalid link", () => {
    renderPage("invalid");
    expect(screen.getByRole("alert").textContent).toBe("The password reset link was invalid, possibly because it has already been used. Please request a new one.");
    expect(screen.getByRole("link", { name: "request a new one" }).getAttribute("href")).toBe("/account/password/reset");
  });
});
