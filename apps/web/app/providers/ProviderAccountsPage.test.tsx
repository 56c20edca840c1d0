import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { createAllauthClient, type AllauthClient, type AllauthProvider, type ProviderRedirectInput } from "@atelier/auth";
import { loadProviderAccounts, PROVIDER_ACCOUNTS_LOAD_FAILED_MESSAGE, ProviderAccountsPage } from "./ProviderAccountsPage.tsx";
import { KnownConfiguration, ShowLocation, deferred, fakeAuthClient, googleProvider, localProvider, signedInAnswer } from "./provider-test-support.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type AccountsResult = Awaited<ReturnType<AllauthClient["listProviderAccounts"]>>;

const localAccount = { uid: "ada-42", display: "Ada (local)", provider: localProvider };
const googleAccount = { uid: "goo12345", display: "ada@gmail.example", provider: googleProvider };

function fakeClient(accounts = [localAccount, googleAccount]) {
  return {
    listProviderAccounts: vi.fn<AllauthClient["listProviderAccounts"]>(async () => ({ status: 200, data: accounts })),
    disconnectProviderAccount: vi.fn<AllauthClient["disconnectProviderAccount"]>(),
  };
}

/** The page as its route shows it: the loader's data, the client from the auth provider. */
async function renderPage(client: ReturnType<typeof fakeClient>, { path = "/account/providers", providers = [localProvider, googleProvider] }: { path?: string; providers?: AllauthProvider[] } = {}) {
  const startRedirect = vi.fn<(input: ProviderRedirectInput) => void>();
  const data = await loadProviderAccounts(client);
  render(
    <KnownConfiguration providers={providers} signedIn client={fakeAuthClient(client)}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/account/providers" element={<ProviderAccountsPage data={data} startRedirect={startRedirect} />} />
        </Routes>
      </MemoryRouter>
    </KnownConfiguration>,
  );
  return { startRedirect };
}

const rows = () => screen.getAllByRole("row").slice(1).map((row) => within(row).getAllByRole("cell").slice(0, 2).map((cell) => cell.textContent));

describe("given the third-party accounts page", () => {
  it("should list each connected account with its provider's name and its display", async () => {
    await renderPage(fakeClient());
    await screen.findByRole("table");
    expect(rows()).toEqual([
      ["Test ID (local)", "Ada (local)"],
      ["Google", "ada@gmail.example"],
    ]);
  });

  it("should say so when no account is connected", async () => {
    await renderPage(fakeClient([]));
    expect(await screen.findByText("No third-party account is connected yet.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("should disconnect an account and show the remaining ones", async () => {
    const client = fakeClient();
    const call = deferred<AccountsResult>();
    client.disconnectProviderAccount.mockReturnValue(call.promise);
    await renderPage(client);
    fireEvent.click(await screen.findByRole("button", { name: "Disconnect Ada (local) (Test ID (local))" }));
    expect(client.disconnectProviderAccount).toHaveBeenCalledWith({ provider: "local", account: "ada-42" });
    expect((screen.getByRole("button", { name: "Disconnect ada@gmail.example (Google)" }) as HTMLButtonElement).disabled).toBe(true);
    call.resolve({ status: 200, data: [googleAccount] });
    expect((await screen.findByRole("status")).textContent).toBe("Your Test ID (local) account Ada (local) was disconnected.");
    expect(rows()).toEqual([["Google", "ada@gmail.example"]]);
  });

  it("should show why the last way to sign in cannot be disconnected, and keep the account", async () => {
    const client = fakeClient([localAccount]);
    client.disconnectProviderAccount.mockResolvedValue({ status: 400, errors: [{ message: "Your account has no password set up.", code: "no_password" }] });
    await renderPage(client);
    fireEvent.click(await screen.findByRole("button", { name: "Disconnect Ada (local) (Test ID (local))" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Your account has no password set up.");
    expect(rows()).toEqual([["Test ID (local)", "Ada (local)"]]);
  });

  it("should say so when the accounts cannot be loaded", async () => {
    const client = fakeClient();
    client.listProviderAccounts.mockResolvedValue({ status: 400, errors: [{ message: "Nope.", code: "invalid" }] });
    await renderPage(client);
    expect(screen.getByRole("alert").textContent).toBe(PROVIDER_ACCOUNTS_LOAD_FAILED_MESSAGE);
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("should offer a connect button per configured provider", async () => {
    const { startRedirect } = await renderPage(fakeClient());
    expect(screen.getByRole("heading", { level: 2, name: "Connect another account" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Connect Test ID (local)" }));
    expect(startRedirect).toHaveBeenCalledExactlyOnceWith({ provider: "local", process: "connect", callbackUrl: `${window.location.origin}/account/providers` });
  });

  it("should have no connect section when no provider is configured", async () => {
    await renderPage(fakeClient(), { providers: [] });
    await screen.findByRole("table");
    expect(screen.queryByRole("heading", { name: "Connect another account" })).toBeNull();
  });

  it("should explain a connection that belongs to another user", async () => {
    await renderPage(fakeClient(), { path: "/account/providers?error=connected_other&error_process=connect" });
    expect((await screen.findByRole("alert")).textContent).toBe("The third-party account is already connected to a different account.");
  });

  it("should ask to confirm it is you when the connection needed a fresh authentication", async () => {
    await renderPage(fakeClient(), { path: "/account/providers?error=reauthentication_required&error_process=connect" });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("link", { name: "Confirm it is you" }).getAttribute("href")).toBe("/account/reauthenticate?next=%2Faccount%2Fproviders");
  });

  it("should say 'Something went wrong.' for any other failed connection", async () => {
    await renderPage(fakeClient(), { path: "/account/providers?error=unknown&error_process=connect" });
    expect((await screen.findByRole("alert")).textContent).toBe("Something went wrong.");
  });
});

describe("given a disconnect that needs a fresh authentication", () => {
  it("should end on the reauthentication page, which comes back here (as the e-mail page does)", async () => {
    const reauthenticationRequired = {
      status: 401,
      data: { user: signedInAnswer.data.user, methods: signedInAnswer.data.methods, flows: [{ id: "reauthenticate" }] },
      meta: { is_authenticated: true },
    };
    const client = createAllauthClient({
      baseUrl: "/_allauth",
      clientType: "browser",
      readCsrfToken: () => "csrf",
      fetch: async (input) => {
        const request = input as Request;
        const body = request.method === "GET" ? { status: 200, data: [localAccount] } : reauthenticationRequired;
        return Response.json(body, { status: body.status });
      },
    });
    const data = await loadProviderAccounts(client);
    render(
      <MemoryRouter initialEntries={["/account/providers"]}>
        <KnownConfiguration providers={[localProvider]} signedIn client={client} withRedirector>
          <Routes>
            <Route path="/account/providers" element={<ProviderAccountsPage data={data} />} />
            <Route path="/account/reauthenticate" element={<ShowLocation name="Reauthenticate" />} />
          </Routes>
        </KnownConfiguration>
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Disconnect Ada (local) (Test ID (local))" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Reauthenticate at /account/reauthenticate?next=%2Faccount%2Fproviders" })).toBeTruthy());
  });
});
