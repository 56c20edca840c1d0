import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { AllauthClient } from "@atelier/auth";
import { ProviderSignupPage } from "./ProviderSignupPage.tsx";
import { ShowLocation, localProvider, signedInAnswer } from "./provider-test-support.tsx";

afterEach(cleanup);

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

function renderPage(client: ReturnType<typeof fakeClient>) {
  render(
    <MemoryRouter initialEntries={["/account/provider/signup"]}>
      <Routes>
        <Route path="/account/provider/signup" element={<ProviderSignupPage client={client} />} />
        <Route path="/dashboard" element={<ShowLocation name="Dashboard" />} />
        <Route path="/account/login" element={<ShowLocation name="Login" />} />
        <Route path="/account/verify-email" element={<ShowLocation name="Verify e-mail" />} />
      </Routes>
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
    renderPage(fakeClient(pendingSignup([
      { email: "other@example.org", verified: false, primary: false },
      { email: "ada@example.org", verified: true, primary: true },
    ])));
    expect(((await screen.findByLabelText("Email")) as HTMLInputElement).value).toBe("ada@example.org");
    expect(screen.getByText("Test ID (local)", { selector: "dd" })).toBeTruthy();
    expect(screen.getByText("Ada Lovelace", { selector: "dd" })).toBeTruthy();
  });

  it("should leave the field empty when the provider gave no address", async () => {
    renderPage(fakeClient(pendingSignup([])));
    expect(((await screen.findByLabelText("Email")) as HTMLInputElement).value).toBe("");
  });

  it("should go to the login page when no provider sign-up is pending", async () => {
    renderPage(fakeClient({ status: 409 }));
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });

  it("should send the address and open the dashboard once signed in", async () => {
    const client = fakeClient(pendingSignup([]));
    renderPage(client);
    await submitEmail(" ada@example.org ");
    expect(await screen.findByRole("heading", { name: "Dashboard at /dashboard" })).toBeTruthy();
    expect(client.providerSignup).toHaveBeenCalledWith({ email: "ada@example.org" });
  });

  it("should open the next flow's page on a 401, such as the e-mail verification", async () => {
    const verifyEmail = { status: 401, data: { flows: [{ id: "login" }, { id: "verify_email", is_pending: true }] }, meta: { is_authenticated: false } } as SignupResult;
    renderPage(fakeClient(pendingSignup([]), verifyEmail));
    await submitEmail("ada@example.org");
    expect(await screen.findByRole("heading", { name: "Verify e-mail at /account/verify-email" })).toBeTruthy();
  });

  it("should show the server's error under the field", async () => {
    const message = "A user is already registered with this email address.";
    renderPage(fakeClient(pendingSignup([{ email: "taken@example.org", verified: true, primary: true }]), { status: 400, errors: [{ message, code: "email_taken", param: "email" }] }));
    await submitEmail();
    const error = await screen.findByText(message);
    const field = screen.getByLabelText("Email");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe(error.closest("ul")?.id);
  });

  it("should go to the login page when the sign-up is no longer pending", async () => {
    renderPage(fakeClient(pendingSignup([]), { status: 409 }));
    await submitEmail("ada@example.org");
    expect(await screen.findByRole("heading", { name: "Login at /account/login" })).toBeTruthy();
  });
});
