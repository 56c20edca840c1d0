import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import type { WebAuthnAuthenticator } from "@atelier/auth";
import { DELETE_FAILED_MESSAGE, RENAME_FAILED_MESSAGE, SecurityKeyList } from "./SecurityKeyList.tsx";
import type { MfaClient } from "./use-authenticators.ts";

afterEach(cleanup);

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
    listAuthenticators: vi.fn<MfaClient["listAuthenticators"]>(async () => ({
      status: 200,
      data: [{ type: "totp", created_at: 1_700_000_000, last_used_at: null }, yubiKey, laptop],
    })),
    renameWebAuthnAuthenticator: vi.fn<MfaClient["renameWebAuthnAuthenticator"]>(),
    deleteWebAuthnAuthenticators: vi.fn<MfaClient["deleteWebAuthnAuthenticators"]>(),
  };
}

function renderList(client: ReturnType<typeof fakeClient>) {
  render(
    <MemoryRouter>
      <SecurityKeyList client={client} />
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
  it("should list the keys with their kind and dates", async () => {
    renderList(fakeClient());
    await screen.findByRole("table");
    expect(names()).toEqual(["YubiKey", "Laptop"]);
    const [yubiKeyRow, laptopRow] = screen.getAllByRole("row").slice(1);
    expect(within(yubiKeyRow!).getByText("Security key")).toBeTruthy();
    expect(within(yubiKeyRow!).getByText("Never")).toBeTruthy();
    expect(within(laptopRow!).getByText("Passkey")).toBeTruthy();
  });

  it("should cancel the renaming with Escape, keep the old name and call nothing", async () => {
    const client = fakeClient();
    renderList(client);
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
    const call = deferred<Awaited<ReturnType<MfaClient["renameWebAuthnAuthenticator"]>>>();
    client.renameWebAuthnAuthenticator.mockReturnValue(call.promise);
    renderList(client);
    await rename("YubiKey", "Blue key");
    expect(names()).toEqual(["Blue key", "Laptop"]);
    expect(client.renameWebAuthnAuthenticator).toHaveBeenCalledWith({ id: 1, name: "Blue key" });
    call.resolve({ status: 200, data: { ...yubiKey, name: "Blue key" }, meta: undefined });
    await waitFor(() => expect(names()).toEqual(["Blue key", "Laptop"]));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("should put the old name back when the server refuses the rename", async () => {
    const client = fakeClient();
    const call = deferred<Awaited<ReturnType<MfaClient["renameWebAuthnAuthenticator"]>>>();
    client.renameWebAuthnAuthenticator.mockReturnValue(call.promise);
    renderList(client);
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
    renderList(client);
    await rename("Laptop", "Work laptop");
    expect((await screen.findByRole("alert")).textContent).toBe(RENAME_FAILED_MESSAGE);
    expect(names()).toEqual(["YubiKey", "Laptop"]);
  });

  it("should remove a key at once, and put it back in its place when the server refuses", async () => {
    const client = fakeClient();
    const call = deferred<Awaited<ReturnType<MfaClient["deleteWebAuthnAuthenticators"]>>>();
    client.deleteWebAuthnAuthenticators.mockReturnValue(call.promise);
    renderList(client);
    fireEvent.click(await screen.findByRole("button", { name: "Remove YubiKey" }));
    expect(names()).toEqual(["Laptop"]);
    expect(client.deleteWebAuthnAuthenticators).toHaveBeenCalledWith({ ids: [1] });
    call.resolve({ status: 400, errors: [{ message: "Select a valid choice.", code: "invalid_choice", param: "authenticators" }] });
    expect((await screen.findByRole("alert")).textContent).toBe(DELETE_FAILED_MESSAGE);
    expect(names()).toEqual(["YubiKey", "Laptop"]);
  });

  it("should keep a key removed when the server agrees", async () => {
    const client = fakeClient();
    client.deleteWebAuthnAuthenticators.mockResolvedValue({ status: 200 });
    renderList(client);
    fireEvent.click(await screen.findByRole("button", { name: "Remove Laptop" }));
    await waitFor(() => expect(client.deleteWebAuthnAuthenticators).toHaveBeenCalledTimes(1));
    expect(names()).toEqual(["YubiKey"]);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
