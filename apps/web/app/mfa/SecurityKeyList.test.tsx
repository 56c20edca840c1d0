import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { AllauthClient, WebAuthnAuthenticator } from "@atelier/auth";
import { KnownConfiguration, fakeAuthClient } from "../providers/provider-test-support.tsx";
import { loadAuthenticators } from "./authenticators.ts";
import { DELETE_FAILED_MESSAGE, RENAME_FAILED_MESSAGE, SecurityKeyList } from "./SecurityKeyList.tsx";


afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const yubiKey: WebAuthnAuthenticator = { type: "webauthn", id: 1, name: "YubiKey", is_passwordless: false, created_at: 1_700_000_000, last_used_at: null };
const laptop: WebAuthnAuthenticator = { type: "webauthn", id: 2, name: "Laptop", is_passwordless: true, created_at: 1_700_000_100, last_used_at: 1_700_000_200 };

/** A promise the test settles by hand, to look at the list while the call is under way. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

function fakeClient() {
  return {
    listAuthenticators: vi.fn<AllauthClient["listAuthenticators"]>(async () => ({
      status: 200,
      data: [{ type: "totp", created_at: 1_700_000_000, last_used_at: null }, yubiKey, laptop],
    })),
    renameWebAuthnAuthenticator: vi.fn<AllauthClient["renameWebAuthnAuthenticator"]>(),
    deleteWebAuthnAuthenticators: vi.fn<AllauthClient["deleteWebAuthnAuthenticators"]>(),
  };
}

/** The page as its route shows it: the loader's data, the client from the auth provider. */
async function renderList(client: ReturnType<typeof fakeClient>, arrivedWith?: { securityKeyAdded: string }) {
  const data = await loadAuthenticators(client);
  render(
    <MemoryRouter initialEntries={[{ pathname: "/account/2fa/webauthn", state: arrivedWith }]}>
      <KnownConfiguration providers={[]} signedIn client={fakeAuthClient(client)}>
        <SecurityKeyList data={data} />
      </KnownConfiguration>
    </MemoryRouter>,
  );
}

const names = () => screen.getAllByRole("row").slice(1).map((row) => within(row).getAllByRole("cell")[0]?.textContent);

async function rename(from: string, to: string) {
  fireEvent.click(await screen.findByRole("button", { name: `Rename ${from}` }));
  fireEvent.change(screen.getByLabelText(`New name of ${from}`), { target: { value: to } });
  fireEvent.click(screen.getByRole("button", { name: "Save" }));
}

describe("given the security-key list", () => {
  it("should say that a key was added when the add page sends the visitor here, and say nothing otherwise", async () => {
    await renderList(fakeClient(), { securityKeyAdded: "Laptop" });
    expect((await screen.findByRole("status")).textContent).toBe("Laptop was added. You can now use it to sign in.");
    cleanup();
    await renderList(fakeClient());
    await screen.findByRole("table");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("should list the keys with their kind and dates", async () => {
    await renderList(fakeClient());
    await screen.findByRole("table");
    expect(names()).toEqual(["YubiKey", "Laptop"]);
    const [yubiKeyRow, laptopRow] = screen.getAllByRole("row").slice(1);
    expect(within(yubiKeyRow!).getByText("Security key")).toBeTruthy();
    expect(within(yubiKeyRow!).getByText("Never")).toBeTruthy();
    expect(within(laptopRow!).getByText("Passkey")).toBeTruthy();
  });

  it("should cancel the renaming with Escape, keep the old name and call nothing", async () => {
    const client = fakeClient();
    await renderList(client);
    fireEvent.click(await screen.findByRole("button", { name: "Rename YubiKey" }));
    const field = screen.getByLabelText("New name of YubiKey");
    fireEvent.change(field, { target: { value: "Half typed" } });
    fireEvent.keyDown(field, { key: "Escape" });
    expect(screen.queryByLabelText("New name of YubiKey")).toBeNull();
    expect(names()).toEqual(["YubiKey", "Laptop"]);
    expect(client.renameWebAuthnAuthenticator).not.toHaveBeenCalled();
  });

  it("should show a new name at once and keep the server's answer", async () => {
    const client = fakeClient();
    const call = deferred<Awaited<ReturnType<AllauthClient["renameWebAuthnAuthenticator"]>>>();
    client.renameWebAuthnAuthenticator.mockReturnValue(call.promise);
    await renderList(client);
    await rename("YubiKey", "Blue key");
    expect(names()).toEqual(["Blue key", "Laptop"]);
    expect(client.renameWebAuthnAuthenticator).toHaveBeenCalledWith({ id: 1, name: "Blue key" });
    call.resolve({ status: 200, data: { ...yubiKey, name: "Blue key" }, meta: undefined });
    await waitFor(() => expect(names()).toEqual(["Blue key", "Laptop"]));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("should put the old name back when the server refuses the rename", async () => {
    const client = fakeClient();
    const call = deferred<Awaited<ReturnType<AllauthClient["renameWebAuthnAuthenticator"]>>>();
    client.renameWebAuthnAuthenticator.mockReturnValue(call.promise);
    await renderList(client);
    await rename("YubiKey", "Blue key");
    expect(names()).toEqual(["Blue key", "Laptop"]);
    call.resolve({ status: 400, errors: [{ message: "Select a valid choice.", code: "invalid_choice", param: "id" }] });
    expect((await screen.findByRole("alert")).textContent).toBe(RENAME_FAILED_MESSAGE);
    expect(names()).toEqual(["YubiKey", "Laptop"]);
  });

  it("should put the old name back when the rename call fails", async () => {
    const client = fakeClient();
    client.renameWebAuthnAuthenticator.mockRejectedValue(new Error("offline"));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await renderList(client);
    await rename("Laptop", "Work laptop");
    expect((await screen.findByRole("alert")).textContent).toBe(RENAME_FAILED_MESSAGE);
    expect(names()).toEqual(["YubiKey", "Laptop"]);
  });

  it("should remove a key at once, and put it back in its place when the server refuses", async () => {
    const client = fakeClient();
    const call = deferred<Awaited<ReturnType<AllauthClient["deleteWebAuthnAuthenticators"]>>>();
    client.deleteWebAuthnAuthenticators.mockReturnValue(call.promise);
    await renderList(client);
    fireEvent.click(await screen.findByRole("button", { name: "Remove YubiKey" }));
    expect(names()).toEqual(["Laptop"]);
    expect(client.deleteWebAuthnAuthenticators).toHaveBeenCalledWith({ ids: [1] });
    call.resolve({ status: 400, errors: [{ message: "Select a valid choice.", code: "invalid_choice", param: "authenticators" }] });
    expect((await screen.findByRole("alert")).textContent).toBe(DELETE_FAILED_MESSAGE);
    expect(names()).toEqual(["YubiKey", "Laptop"]);
  });

  it("should say so when the keys cannot be loaded", async () => {
    const client = fakeClient();
    client.listAuthenticators.mockRejectedValue(new Error("offline"));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await renderList(client);
    expect(screen.getByRole("alert").textContent).toBe("Your security keys could not be loaded.");
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByRole("link", { name: "Add a security key" })).toBeTruthy();
  });

  it("should start again from the loader's newer list", async () => {
    const client = fakeClient();
    client.deleteWebAuthnAuthenticators.mockReturnValue(new Promise(() => undefined));
    const view = render(
      <MemoryRouter>
        <KnownConfiguration providers={[]} signedIn client={fakeAuthClient(client)}>
          <SecurityKeyList data={await loadAuthenticators(client)} />
        </KnownConfiguration>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Remove YubiKey" }));
    expect(names()).toEqual(["Laptop"]);
    view.rerender(
      <MemoryRouter>
        <KnownConfiguration providers={[]} signedIn client={fakeAuthClient(client)}>
          <SecurityKeyList data={{ state: "ready", authenticators: [yubiKey, { ...laptop, name: "Work laptop" }] }} />
        </KnownConfiguration>
      </MemoryRouter>,
    );
    expect(names()).toEqual(["YubiKey", "Work laptop"]);
  });

  it("should keep a key removed when the server agrees", async () => {
    const client = fakeClient();
    client.deleteWebAuthnAuthenticators.mockResolvedValue({ status: 200 });
    await renderList(client);
    fireEvent.click(await screen.findByRole("button", { name: "Remove Laptop" }));
    await waitFor(() => expect(client.deleteWebAuthnAuthenticators).toHaveBeenCalledTimes(1));
    expect(names()).toEqual(["YubiKey"]);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
