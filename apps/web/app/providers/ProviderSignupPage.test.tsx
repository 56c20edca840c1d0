import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { AllauthClient } from "@atelier/auth";
import { loadProviderSignup, PROVIDER_SIGNUP_CLOSED_MESSAGE, PROVIDER_SIGNUP_LOAD_FAILED_MESSAGE, ProviderSignupPage } from "./ProviderSignupPage.tsx";
import { KnownConfiguration, ShowLocation, fakeAuthClient, localProvider, signedInAnswer } from "./provider-test-support.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type SignupInfoResult = Awaited<ReturnType<AllauthClient["getProviderSignup"]>>;
type SignupResult = Awaited<ReturnType<AllauthClient["providerSignup"]>>;

const account = { uid: "ada-42", display: "Ada Lovelace", provider: localProvider };

function pendingSignup(email: Array<{ email: string; verified: boolean; primary: boolean }>): SignupInfoResult {
  return { status: 200, data: { email, account, user: { display: "Ada Lovelace", has_usable_password: false } } };
}

function fakeClient(info: SignupInfoResult, signup: SignupResult = signedInAnswer as SignupResult) {
  return {
    getProviderSignup: vi.fn<AllauthClient["getProviderSignup"]>(async () => info),
    providerSignup: vi.fn<AllauthClient["providerSignup"]>(async () => signup),
  };
}

/** The page as its route shows it: the loader's data, the client from the auth provider. */
async function renderPage(client: ReturnType<typeof fakeClient>) {
  const data = await loadProviderSignup(client);
  render(
    <MemoryRouter initialEntries={["/account/provider/signup"]}>
      <KnownConfiguration providers={[localProvider]} client={fakeAuthClient(client)}>
        <Routes>
          <Route path="/account/provider/signup" element={<ProviderSignupPage data={data} />} />
          <Route path="/dashboard" element={<ShowLocation name="Dashboard" />} />
          <Route path="/account/login" element={<ShowLocation name="Login" />} />
          <Route path="/account/verify-email" element={<ShowLocation name="Verify e-mail" />} />
        </Routes>
      </KnownConfiguration>
    </MemoryRouter>,
  );
}

async function submitEmail(email?: string) {
  const field = await screen.findByLabelText("Email");
  if (email !== undefined) fireEvent.change(field, { target: { value: email } });
  fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
}

describe("given the provider sign-up page", () => {
  it("should show the provider and account, with the provider's primary address filled in", async () => {
    await renderPage(fakeClient(pendingSignup([
      { email: "other@example.org", verified: false, primary: false },
      { email: "ada@example.org", verified: true, primary: true },
    ])));
    expect(((await screen.findByLabelText("Email")) as HTMLInputElement).value).toBe("ada@example.org");
    expect(screen.getByText("Test ID (local)", { selector: "dd" })).toBeTruthy();
    expect(screen.getByText("Ada Lovelace", { selector: "dd" })).toBeTruthy();
  });

  it("should leave the field empty when the provider gave no address", async () => {
    await renderPage(fakeClient(pendingSignup([])));
    expect(((await screen.findByLabelText("Email")) as HTMLInputElement).value).toBe("");
  });

  it("should go to the login page when no provider sign-up is pending", async () => {
    await renderPage(fakeClient({ status: 409 }));
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });

  it("should say sign-up is closed on a 403, with the way to the login page", async () => {
    await renderPage(fakeClient({ status: 403, errors: [{ message: "Signup is closed.", code: "signup_closed" }] } as SignupInfoResult));
    expect(screen.getByRole("alert").textContent).toBe(PROVIDER_SIGNUP_CLOSED_MESSAGE);
    expect(screen.getByRole("link", { name: "Go to the login page" }).getAttribute("href")).toBe("/account/login");
  });

  it("should say the sign-up could not be loaded when the call fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const client = fakeClient(pendingSignup([]));
    client.getProviderSignup.mockRejectedValue(new Error("offline"));
    await renderPage(client);
    expect(screen.getByRole("alert").textContent).toBe(PROVIDER_SIGNUP_LOAD_FAILED_MESSAGE);
  });

  it("should send the address and open the dashboard once signed in", async () => {
    const client = fakeClient(pendingSignup([]));
    await renderPage(client);
    await submitEmail(" ada@example.org ");
    expect(await screen.findByRole("heading", { name: "Dashboard at /dashboard" })).toBeTruthy();
    expect(client.providerSignup).toHaveBeenCalledWith({ email: "ada@example.org" });
  });

  it("should open the next flow's page on a 401, such as the e-mail verification", async () => {
    const verifyEmail = { status: 401, data: { flows: [{ id: "login" }, { id: "verify_email", is_pending: true }] }, meta: { is_authenticated: false } } as SignupResult;
    await renderPage(fakeClient(pendingSignup([]), verifyEmail));
    await submitEmail("ada@example.org");
    expect(await screen.findByRole("heading", { name: "Verify e-mail at /account/verify-email" })).toBeTruthy();
  });

  it("should show the server's error under the field", async () => {
    const message = "A user is already registered with this email address.";
    await renderPage(fakeClient(pendingSignup([{ email: "taken@example.org", verified: true, primary: true }]), { status: 400, errors: [{ message, code: "email_taken", param: "email" }] }));
    await submitEmail();
    const error = await screen.findByText(message);
    const field = screen.getByLabelText("Email");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe(error.closest("ul")?.id);
  });

  it("should go to the login page when the sign-up is no longer pending", async () => {
    await renderPage(fakeClient(pendingSignup([]), { status: 409 }));
    await submitEmail("ada@example.org");
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });
});
