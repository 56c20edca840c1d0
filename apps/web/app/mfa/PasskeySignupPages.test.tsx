import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { AllauthClient, AuthenticationResponse } from "@atelier/auth";
import { AuthProvider, createAuthStore } from "@atelier/auth/react";
import { SIGNUP_UNEXPECTED_ERROR_MESSAGE } from "../account/login-messages.ts";
import { ShowLocation, configurationWithProviders, fakeAuthClient } from "../providers/provider-test-support.tsx";
import { loadPasskeyCreation, PASSKEY_SIGNUP_PATH, PasskeyCreatePage } from "./PasskeySignupPages.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type OptionsResult = Awaited<ReturnType<AllauthClient["getWebAuthnSignupOptions"]>>;

const pendingPasskeySignup = { status: 401, data: { flows: [{ id: "mfa_signup_webauthn", is_pending: true }] }, meta: { is_authenticated: false } } as AuthenticationResponse;
const nothingPending = { status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } } as AuthenticationResponse;
const creationOptions = { status: 200, data: { creation_options: { publicKey: { challenge: "abc" } } } } as unknown as OptionsResult;

function fakeClient(answer: () => Promise<OptionsResult>) {
  return { getWebAuthnSignupOptions: vi.fn<AllauthClient["getWebAuthnSignupOptions"]>(answer) };
}

/** The page as its route shows it, for a visitor whose last answer is `status`. */
async function renderPage(client: ReturnType<typeof fakeClient>, status: AuthenticationResponse) {
  const authClient = fakeAuthClient(client);
  const data = await loadPasskeyCreation(client, { pendingFlow: status.status === 401 ? status.data.flows.find((flow) => flow.is_pending) : undefined });
  const store = createAuthStore(authClient, { initialConfiguration: configurationWithProviders([]), initialAuthenticationResponse: status });
  render(
    <MemoryRouter initialEntries={["/account/signup/passkey/create"]}>
      <AuthProvider client={authClient} store={store} gate="none" loadOnMount={false}>
        <Routes>
          <Route path="/account/signup/passkey/create" element={<PasskeyCreatePage data={data} />} />
          <Route path={PASSKEY_SIGNUP_PATH} element={<ShowLocation name="Passkey sign-up" />} />
        </Routes>
      </AuthProvider>
    </MemoryRouter>,
  );
}

describe("given the passkey creation page", () => {
  it("should offer to create the passkey with the loader's options", async () => {
    const client = fakeClient(async () => creationOptions);
    await renderPage(client, pendingPasskeySignup);
    expect((screen.getByRole("textbox", { name: "Passkey name" }) as HTMLInputElement).value).toBe("Passkey");
    expect((screen.getByRole("button", { name: "Create passkey" }) as HTMLButtonElement).disabled).toBe(false);
    expect(client.getWebAuthnSignupOptions).toHaveBeenCalledTimes(1);
  });

  it("should go back to the passkey sign-up page, without asking for options, when no passkey sign-up is pending", async () => {
    const client = fakeClient(async () => creationOptions);
    await renderPage(client, nothingPending);
    expect(await screen.findByRole("heading", { name: `Passkey sign-up at ${PASSKEY_SIGNUP_PATH}` })).toBeTruthy();
    expect(client.getWebAuthnSignupOptions).not.toHaveBeenCalled();
  });

  it("should go back to the passkey sign-up page on a 409", async () => {
    await renderPage(fakeClient(async () => ({ status: 409, errors: [{ message: "Conflict.", code: "conflict" }] }) as OptionsResult), pendingPasskeySignup);
    expect(await screen.findByRole("heading", { name: `Passkey sign-up at ${PASSKEY_SIGNUP_PATH}` })).toBeTruthy();
  });

  it("should say sign-up failed, and offer no button to press, when the options cannot be loaded", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await renderPage(fakeClient(async () => Promise.reject(new Error("offline"))), pendingPasskeySignup);
    expect(screen.getByRole("alert").textContent).toBe(SIGNUP_UNEXPECTED_ERROR_MESSAGE);
    expect((screen.getByRole("button", { name: "Create passkey" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
