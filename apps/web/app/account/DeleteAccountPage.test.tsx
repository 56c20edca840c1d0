import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSiteHttp } from "@atelier/site-api";
import { ACCOUNT_DELETION_PATH, createAccountDeletionClient } from "@atelier/site-api";
import { AccountDeletionClientProvider } from "./account-deletion-client.ts";
import { ACCOUNT_DELETED_PATH, DeleteAccountPage } from "./DeleteAccountPage.tsx";

afterEach(cleanup);

const email = "anna@example.ch";

function renderPage(answer: { status: number; body?: unknown }) {
  const fetch = vi.fn(async (_request: Request) => new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { "Content-Type": "application/json" } }));
  const onDeleted = vi.fn(async () => undefined);
  const client = createAccountDeletionClient(createSiteHttp({ fetch: fetch as unknown as typeof globalThis.fetch, readCsrfToken: () => "csrf-from-cookie" }));
  const router = createMemoryRouter(
    [
      {
        path: "/account/delete",
        element: (
          <AccountDeletionClientProvider client={client}>
            <DeleteAccountPage email={email} onDeleted={onDeleted} />
          </AccountDeletionClientProvider>
        ),
      },
      { path: ACCOUNT_DELETED_PATH, element: <p>deleted page</p> },
      { path: "/account/reauthenticate", element: <p>reauthenticate page</p> },
    ],
    { initialEntries: ["/account/delete"] },
  );
  render(<RouterProvider router={router} />);
  return { fetch, onDeleted, router };
}

const confirmField = () => screen.getByLabelText(/Type your e-mail address/);
const deleteButton = () => screen.getByRole("button", { name: "Delete my account" }) as HTMLButtonElement;

describe("given the delete-account page", () => {
  it("should keep the button off until the address is typed out, then delete, tell the session and go to the goodbye page", async () => {
    const { fetch, onDeleted, router } = renderPage({ status: 204 });
    expect(deleteButton().disabled).toBe(true);
    fireEvent.change(confirmField(), { target: { value: "anna@example" } });
    expect(deleteButton().disabled).toBe(true);
    fireEvent.change(confirmField(), { target: { value: " ANNA@example.ch " } });
    expect(deleteButton().disabled).toBe(false);
    fireEvent.click(deleteButton());
    await screen.findByText("deleted page");
    const request = fetch.mock.calls[0]![0];
    expect(request.method).toBe("DELETE");
    expect(new URL(request.url).pathname).toBe(ACCOUNT_DELETION_PATH);
    expect(onDeleted).toHaveBeenCalledOnce();
    expect(router.state.location.pathname).toBe(ACCOUNT_DELETED_PATH);
  });

  it("should send a user whose sign-in is old to the reauthentication screen and back", async () => {
    const { onDeleted, router } = renderPage({ status: 401, body: { status: 401, data: { flows: [{ id: "reauthenticate" }] }, meta: { is_authenticated: true } } });
    fireEvent.change(confirmField(), { target: { value: email } });
    fireEvent.click(deleteButton());
    await screen.findByText("reauthenticate page");
    expect(router.state.location.search).toBe("?next=%2Faccount%2Fdelete");
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it("should say what went wrong and that nothing was deleted when the server refuses", async () => {
    renderPage({ status: 502, body: { message: "The payment provider could not be reached. Please try again in a moment." } });
    fireEvent.change(confirmField(), { target: { value: email } });
    fireEvent.click(deleteButton());
    expect((await screen.findByRole("alert")).textContent).toBe("The payment provider could not be reached. Please try again in a moment.");
    await waitFor(() => expect(deleteButton().disabled).toBe(false));
  });
});
