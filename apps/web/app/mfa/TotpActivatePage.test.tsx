import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { AllauthClient } from "@atelier/auth";
import { KnownConfiguration, fakeAuthClient } from "../providers/provider-test-support.tsx";
import { loadTotpActivation, TotpActivatePage } from "./TotpActivatePage.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const secret = "J6XBQ5BAGCQ7ETQNEWJPKR4WYCG3ZQXS";
const totpUrl = `otpauth://totp/Atelier:ada%40example.org?secret=${secret}&issuer=Atelier`;
const activeTotp = { type: "totp" as const, created_at: 1_700_000_000, last_used_at: null };

function fakeClient(overrides: Partial<Pick<AllauthClient, "getTotpAuthenticator" | "activateTotp">> = {}) {
  return {
    getTotpAuthenticator: vi.fn<AllauthClient["getTotpAuthenticator"]>(async () => ({ status: 404, meta: { secret, totp_url: totpUrl } })),
    activateTotp: vi.fn<AllauthClient["activateTotp"]>(async () => ({ status: 200, data: activeTotp, meta: undefined })),
    ...overrides,
  };
}

/** The page as its route shows it: the loader's data, the client from the auth provider. */
async function renderPage(client: ReturnType<typeof fakeClient>, recoveryCodesSupported = false) {
  const data = await loadTotpActivation(client);
  render(
    <MemoryRouter initialEntries={["/account/2fa/totp/activate"]}>
      <KnownConfiguration providers={[]} signedIn client={fakeAuthClient(client)}>
        <Routes>
          <Route path="/account/2fa/totp/activate" element={<TotpActivatePage data={data} recoveryCodesSupported={recoveryCodesSupported} />} />
          <Route path="/account/2fa" element={<p>Two-factor overview</p>} />
          <Route path="/account/2fa/recovery-codes" element={<p>Recovery codes page</p>} />
        </Routes>
      </KnownConfiguration>
    </MemoryRouter>,
  );
}

describe("given the TOTP activation page", () => {
  it("should draw the otpauth URL as a QR code and show the secret as text", async () => {
    await renderPage(fakeClient());
    const qrCode = await screen.findByRole("img", { name: "QR code to scan with your authenticator app" });
    const source = decodeURIComponent(qrCode.getAttribute("src") ?? "");
    expect(source.startsWith("data:image/svg+xml;charset=utf-8,<svg")).toBe(true);
    expect(screen.getByText(secret).tagName).toBe("CODE");
  });

  it("should submit the code and go back to the overview once active", async () => {
    const client = fakeClient();
    await renderPage(client);
    fireEvent.change(await screen.findByLabelText("Authenticator code"), { target: { value: " 123456 " } });
    fireEvent.click(screen.getByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Two-factor overview")).toBeTruthy();
    expect(client.activateTotp).toHaveBeenCalledWith({ code: "123456" });
  });

  it("should show the recovery codes right after activation when the server offers them", async () => {
    const client = fakeClient();
    await renderPage(client, true);
    fireEvent.change(await screen.findByLabelText("Authenticator code"), { target: { value: "123456" } });
    fireEvent.click(screen.getByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Recovery codes page")).toBeTruthy();
  });

  it("should show the server's error under the field for a wrong code", async () => {
    const client = fakeClient({
      activateTotp: vi.fn<AllauthClient["activateTotp"]>(async () => ({ status: 400, errors: [{ message: "Incorrect code.", code: "incorrect_code", param: "code" }] })),
    });
    await renderPage(client);
    fireEvent.change(await screen.findByLabelText("Authenticator code"), { target: { value: "000000" } });
    fireEvent.click(screen.getByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Incorrect code.")).toBeTruthy();
  });

  it("should not submit an empty code", async () => {
    const client = fakeClient();
    await renderPage(client);
    fireEvent.click(await screen.findByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Enter the code your app shows.")).toBeTruthy();
    expect(client.activateTotp).not.toHaveBeenCalled();
  });

  it("should say so when the app is already active", async () => {
    await renderPage(fakeClient({ getTotpAuthenticator: vi.fn<AllauthClient["getTotpAuthenticator"]>(async () => ({ status: 200, data: activeTotp, meta: undefined })) }));
    expect(await screen.findByText("The authenticator app is already active.")).toBeTruthy();
  });

  it("should keep preparing on a 401, while the redirector opens the reauthentication page", async () => {
    const reauthenticationRequired = {
      status: 401,
      data: { user: { id: 7, display: "Ada", email: "ada@example.org", has_usable_password: true }, methods: [], flows: [{ id: "reauthenticate" }] },
      meta: { is_authenticated: true },
    } as Awaited<ReturnType<AllauthClient["getTotpAuthenticator"]>>;
    await renderPage(fakeClient({ getTotpAuthenticator: vi.fn<AllauthClient["getTotpAuthenticator"]>(async () => reauthenticationRequired) }));
    expect(screen.getByRole("status").textContent).toBe("Preparing your secret");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("should say the app cannot be set up when the secret cannot be asked", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await renderPage(fakeClient({ getTotpAuthenticator: vi.fn<AllauthClient["getTotpAuthenticator"]>(async () => Promise.reject(new Error("offline"))) }));
    expect(screen.getByRole("alert").textContent).toBe("The authenticator app cannot be set up right now. Please try again.");
    expect(screen.getByRole("link", { name: "Back to two-factor authentication" })).toBeTruthy();
  });

  it("should explain a 409 (unverified e-mail address)", async () => {
    const message = "You cannot activate two-factor authentication until you have verified your email address.";
    await renderPage(fakeClient({ getTotpAuthenticator: vi.fn<AllauthClient["getTotpAuthenticator"]>(async () => ({ status: 409, errors: [{ message, code: "unverified_email" }] })) }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(message));
  });
});
