import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createRoutesStub, useLoaderData, useRevalidator } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AllauthClient, EmailAddress, ReauthenticationRequiredResponse } from "@atelier/auth";
import { fakeAuthClient, SignedInAs } from "./account-test-support.tsx";
import { EmailAddressesLoading, EmailAddressesPage, loadEmailAddresses, type EmailAddressesData } from "./EmailAddressesPage.tsx";

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});

const user = { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true };
const primary: EmailAddress = { email: "ada@example.org", primary: true, verified: true };
const reauthenticationAnswer: ReauthenticationRequiredResponse = {
  status: 401,
  data: { user, methods: [{ method: "password", at: 1_700_000_000 }], flows: [{ id: "reauthenticate" }] },
  meta: { is_authenticated: true },
};

/** A server that keeps the account's addresses; a code is "123456", and `reauthenticate` refuses the first change. */
function addressServer(addresses: EmailAddress[], { reauthenticate = false } = {}) {
  let current = addresses;
  let askForPassword = reauthenticate;
  const calls = {
    listEmailAddresses: vi.fn<AllauthClient["listEmailAddresses"]>(async () => ({ status: 200, data: current })),
    addEmailAddress: vi.fn<AllauthClient["addEmailAddress"]>(async ({ email }) => {
      if (askForPassword) {
        askForPassword = false;
        return reauthenticationAnswer;
      }
      current = [...current, { email, primary: false, verified: false }];
      return { status: 200, data: current };
    }),
    verifyEmail: vi.fn<AllauthClient["verifyEmail"]>(async ({ key }) => {
      if (key !== "123456") return { status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "key" }] };
      current = current.map((address) => ({ ...address, verified: true }));
      return { status: 200, data: { user, methods: [] }, meta: { is_authenticated: true } };
    }),
    markEmailAddressAsPrimary: vi.fn<AllauthClient["markEmailAddressAsPrimary"]>(async ({ email }) => {
      current = current.map((address) => ({ ...address, primary: address.email === email }));
      return { status: 200, data: current };
    }),
    removeEmailAddress: vi.fn<AllauthClient["removeEmailAddress"]>(async ({ email }) => {
      current = current.filter((address) => address.email !== email);
      return { status: 200, data: current };
    }),
  };
  return { client: fakeAuthClient(calls), calls };
}

function renderPage(client: AllauthClient, { emailVerificationByCode = true } = {}) {
  function LoadedEmailAddressesPage() {
    const revalidator = useRevalidator();
    return <EmailAddressesPage data={useLoaderData() as EmailAddressesData} reload={revalidator.revalidate} />;
  }
  const Stub = createRoutesStub([{ path: "/account/email", Component: LoadedEmailAddressesPage, HydrateFallback: EmailAddressesLoading, loader: () => loadEmailAddresses(client) }]);
  render(
    <SignedInAs client={client} emailVerificationByCode={emailVerificationByCode}>
      <Stub initialEntries={["/account/email"]} />
    </SignedInAs>,
  );
}

const row = (email: string) => screen.getByRole("row", { name: new RegExp(email.replaceAll(".", "\\.")) });
const addressCells = () => screen.getAllByRole("row").slice(1).map((tableRow) => within(tableRow).getAllByRole("cell")[0]?.textContent);

describe("given the e-mail addresses loader", () => {
  it("should list the account's addresses, and none for a visitor who is not signed in", async () => {
    expect(await loadEmailAddresses(addressServer([primary]).client)).toEqual({ addresses: [primary] });
    const signedOut = fakeAuthClient({ listEmailAddresses: async () => ({ status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } }) });
    expect(await loadEmailAddresses(signedOut)).toEqual({ addresses: [] });
  });
});

describe("given the e-mail addresses page with verification by code", () => {
  it("should add an address, ask for its code, confirm it, make it primary and remove the old one, listing the account again each time", async () => {
    const { client, calls } = addressServer([primary]);
    renderPage(client);
    expect(screen.getByText("Loading your addresses…")).toBeTruthy();
    await screen.findByRole("table", { name: "Your e-mail addresses" });

    fireEvent.change(screen.getByRole("textbox", { name: "New e-mail address" }), { target: { value: "ada@work.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Add address" }));
    await screen.findByRole("heading", { name: "Confirm ada@work.example" });
    expect(screen.getByRole("status").textContent).toBe("We have sent a code to ada@work.example. Enter it below to confirm the address.");
    await waitFor(() => expect(addressCells()).toEqual(["ada@example.org", "ada@work.example"]));
    expect(within(row("ada@work.example")).getByText("Unverified")).toBeTruthy();

    fireEvent.change(screen.getByRole("textbox", { name: "Code" }), { target: { value: " 123456 " } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect((await screen.findByText("ada@work.example is confirmed.")).getAttribute("role")).toBe("status");
    // The loader's new data renders in the router's own update, which may come a render after the notice.
    await waitFor(() => expect(within(row("ada@work.example")).queryByText("Verified")).not.toBeNull());
    expect(calls.verifyEmail).toHaveBeenCalledWith({ key: "123456" });

    fireEvent.click(within(row("ada@work.example")).getByRole("button", { name: "Make primary" }));
    await waitFor(() => expect(within(row("ada@work.example")).queryByText("Primary")).not.toBeNull());
    expect(screen.getByRole("status").textContent).toBe("ada@work.example is now your primary address.");

    fireEvent.click(within(row("ada@example.org")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(addressCells()).toEqual(["ada@work.example"]));
    expect(screen.getByRole("status").textContent).toBe("ada@example.org was removed.");
    expect(calls.listEmailAddresses).toHaveBeenCalledTimes(5);
  });

  it("should stop asking for the code of an address once it is removed", async () => {
    const { client } = addressServer([primary]);
    renderPage(client);
    await screen.findByRole("table", { name: "Your e-mail addresses" });
    fireEvent.change(screen.getByRole("textbox", { name: "New e-mail address" }), { target: { value: "ada@work.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Add address" }));
    await screen.findByRole("heading", { name: "Confirm ada@work.example" });
    await waitFor(() => expect(addressCells()).toEqual(["ada@example.org", "ada@work.example"]));
    fireEvent.click(within(row("ada@work.example")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(addressCells()).toEqual(["ada@example.org"]));
    expect(screen.getByRole("status").textContent).toBe("ada@work.example was removed.");
    expect(screen.queryByRole("heading", { name: "Confirm ada@work.example" })).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Code" })).toBeNull();
  });

  it("should show the server's error under the code and keep the address unconfirmed", async () => {
    renderPage(addressServer([primary, { email: "ada@work.example", primary: false, verified: false }]).client);
    await screen.findByRole("table", { name: "Your e-mail addresses" });
    fireEvent.click(within(row("ada@work.example")).getByRole("button", { name: "Enter code" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Code" }), { target: { value: "000000" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("Incorrect code.")).toBeTruthy();
    expect(within(row("ada@work.example")).getByText("Unverified")).toBeTruthy();
  });

  it("should remember an address whose addition asked for the password, and add it when the visitor comes back", async () => {
    const { client, calls } = addressServer([primary], { reauthenticate: true });
    renderPage(client);
    await screen.findByRole("table", { name: "Your e-mail addresses" });
    fireEvent.change(screen.getByRole("textbox", { name: "New e-mail address" }), { target: { value: "ada@work.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Add address" }));
    await waitFor(() => expect(calls.addEmailAddress).toHaveBeenCalledOnce());
    expect(screen.queryByRole("status")).toBeNull();
    cleanup();

    renderPage(client);
    await screen.findByRole("heading", { name: "Confirm ada@work.example" });
    await waitFor(() => expect(addressCells()).toEqual(["ada@example.org", "ada@work.example"]));
    expect(calls.addEmailAddress).toHaveBeenCalledTimes(2);
  });
});
