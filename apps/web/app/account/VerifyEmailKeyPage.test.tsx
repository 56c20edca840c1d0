import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub, useLoaderData } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AllauthClient } from "@atelier/auth";
import { fakeAuthClient, SignedInAs } from "./account-test-support.tsx";
import { INVALID_VERIFICATION_LINK_MESSAGE, loadEmailVerificationKey, VerifyEmailKeyLoading, VerifyEmailKeyPage, type EmailVerificationKeyData } from "./VerifyEmailKeyPage.tsx";

afterEach(cleanup);

const user = { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true };
const keyInfo = vi.fn<AllauthClient["getEmailVerificationKeyInfo"]>(async () => ({ status: 200, data: { email: "ada@work.example", user }, meta: { is_authenticating: false } }));

function renderPage(client: AllauthClient) {
  function LoadedVerifyEmailKeyPage() {
    return <VerifyEmailKeyPage verificationKey="the-key" data={useLoaderData() as EmailVerificationKeyData} />;
  }
  const Stub = createRoutesStub([
    { path: "/account/verify-email/:key", Component: LoadedVerifyEmailKeyPage, HydrateFallback: VerifyEmailKeyLoading, loader: ({ params }) => loadEmailVerificationKey(client, params.key ?? "") },
    { path: "/account/email", Component: () => <p>address list</p> },
  ]);
  render(
    <SignedInAs client={client}>
      <Stub initialEntries={["/account/verify-email/the-key"]} />
    </SignedInAs>,
  );
}

describe("given the confirmation link's loader", () => {
  it("should read the address the key names", async () => {
    expect(await loadEmailVerificationKey(fakeAuthClient({ getEmailVerificationKeyInfo: keyInfo }), "the-key")).toEqual({ state: "valid", email: "ada@work.example" });
    expect(keyInfo).toHaveBeenCalledWith("the-key");
  });

  it("should take a refusal that names the address for one confirmed before, and any other for an invalid link", async () => {
    const refusing = (answer: unknown) => fakeAuthClient({ getEmailVerificationKeyInfo: async () => answer as Awaited<ReturnType<AllauthClient["getEmailVerificationKeyInfo"]>> });
    expect(await loadEmailVerificationKey(refusing({ status: 409, data: { email: "ada@work.example" } }), "k")).toEqual({ state: "already-confirmed", email: "ada@work.example" });
    expect(await loadEmailVerificationKey(refusing({ status: 400, errors: [{ message: "Invalid or expired key.", code: "invalid", param: "key" }] }), "k")).toEqual({ state: "invalid" });
    const failing = fakeAuthClient({ getEmailVerificationKeyInfo: async () => Promise.reject(new Error("offline")) });
    expect(await loadEmailVerificationKey(failing, "k")).toEqual({ state: "invalid" });
  });
});

describe("given the confirmation link's page", () => {
  it("should ask to confirm the address, then confirm it with the key and go to the address list", async () => {
    const verifyEmail = vi.fn<AllauthClient["verifyEmail"]>(async () => ({ status: 200, data: { user, methods: [] }, meta: { is_authenticated: true } }));
    renderPage(fakeAuthClient({ getEmailVerificationKeyInfo: keyInfo, verifyEmail }));
    expect(screen.getByRole("status").textContent).toContain("Checking the link");
    await screen.findByText("ada@work.example");
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    await screen.findByText("address list");
    expect(verifyEmail).toHaveBeenCalledWith({ key: "the-key" });
  });

  it("should say the address is already confirmed when the server refuses the key", async () => {
    renderPage(fakeAuthClient({ getEmailVerificationKeyInfo: keyInfo, verifyEmail: async () => ({ status: 409 }) }));
    fireEvent.click(await screen.findByRole("button", { name: "Confirm" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Unable to confirm email ada@work.example because it is already confirmed.");
  });

  it("should say the link is invalid", async () => {
    renderPage(fakeAuthClient({ getEmailVerificationKeyInfo: async () => ({ status: 400, errors: [] }) }));
    expect((await screen.findByRole("alert")).textContent).toBe(INVALID_VERIFICATION_LINK_MESSAGE);
    expect(screen.queryByRole("button", { name: "Confirm" })).toBeNull();
    expect(screen.getByRole("link", { name: "Send a new link from your e-mail addresses" }).getAttribute("href")).toBe("/account/email");
  });
});
