import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createRoutesStub, useLoaderData } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AllauthClient, UserSession } from "@atelier/auth";
import { fakeAuthClient, SignedInAs } from "./account-test-support.tsx";
import { endSessionsFromRequest, loadSessions, SessionsLoading, SessionsPage, type SessionsData } from "./SessionsPage.tsx";

afterEach(cleanup);

const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const thisSession: UserSession = { id: 1, user_agent: chrome, ip: "203.0.113.9", created_at: 1_763_600_000, is_current: true };
const phone: UserSession = { id: 2, user_agent: firefox, ip: "198.51.100.4", created_at: 1_763_500_000, is_current: false };
const laptop: UserSession = { id: 3, user_agent: firefox, ip: "198.51.100.5", created_at: 1_763_400_000, is_current: false };

/** A server that keeps the account's sessions and ends the ones asked for, unless `refusal` says why not. */
function sessionsServer(sessions: UserSession[], refusal?: string) {
  let current = sessions;
  const listSessions = vi.fn<AllauthClient["listSessions"]>(async () => ({ status: 200, data: current }));
  const endSessions = vi.fn<AllauthClient["endSessions"]>(async ({ sessionIds }) => {
    if (refusal) return { status: 400, errors: [{ message: refusal, code: "invalid" }] };
    current = current.filter((session) => !sessionIds.includes(session.id));
    return { status: 200, data: current };
  });
  return { client: fakeAuthClient({ listSessions, endSessions }), listSessions, endSessions };
}

function renderPage(client: AllauthClient) {
  function LoadedSessionsPage() {
    return <SessionsPage data={useLoaderData() as SessionsData} />;
  }
  const Stub = createRoutesStub([
    {
      path: "/account/sessions",
      Component: LoadedSessionsPage,
      HydrateFallback: SessionsLoading,
      loader: () => loadSessions(client),
      action: ({ request }) => endSessionsFromRequest(client, request),
    },
  ]);
  render(
    <SignedInAs client={client}>
      <Stub initialEntries={["/account/sessions"]} />
    </SignedInAs>,
  );
}

const rows = () => screen.getAllByRole("row").slice(1);
const logOutElsewhere = () => screen.getByRole("button", { name: "Log out elsewhere" }) as HTMLButtonElement;

describe("given the sessions loader", () => {
  it("should list every session the server answers", async () => {
    expect(await loadSessions(sessionsServer([thisSession, phone]).client)).toEqual({ sessions: [thisSession, phone] });
  });

  it("should list none for a visitor who is not signed in, whose page opens the login modal instead", async () => {
    const client = fakeAuthClient({ listSessions: async () => ({ status: 401, data: { flows: [{ id: "login" }] }, meta: { is_authenticated: false } }) });
    expect(await loadSessions(client)).toEqual({ sessions: [] });
  });
});

describe("given the sessions page", () => {
  it("should show each session's browser in words and mark this one, with 'Log out elsewhere' off for one other session", async () => {
    renderPage(sessionsServer([thisSession, phone]).client);
    expect(screen.getByText("Loading your sessions…")).toBeTruthy();
    await screen.findByRole("table", { name: "Your sessions" });
    expect(rows()).toHaveLength(2);
    expect(within(rows()[0]!).getByText("This session")).toBeTruthy();
    expect(within(rows()[1]!).getByText("Firefox 133 on Windows")).toBeTruthy();
    expect(logOutElsewhere().disabled).toBe(true);
  });

  it("should end one session with its own button and list what is left", async () => {
    const { client, endSessions, listSessions } = sessionsServer([thisSession, phone, laptop]);
    renderPage(client);
    await screen.findByRole("table", { name: "Your sessions" });
    fireEvent.click(within(rows()[2]!).getByRole("button", { name: "End" }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(endSessions).toHaveBeenCalledWith({ sessionIds: [3] });
    expect((await screen.findByRole("status")).textContent).toBe("The session was ended: that browser is signed out.");
    expect(listSessions).toHaveBeenCalledTimes(2);
    expect(logOutElsewhere().disabled).toBe(true);
  });

  it("should end every other session with 'Log out elsewhere'", async () => {
    const { client, endSessions } = sessionsServer([thisSession, phone, laptop]);
    renderPage(client);
    await screen.findByRole("table", { name: "Your sessions" });
    expect(logOutElsewhere().disabled).toBe(false);
    fireEvent.click(logOutElsewhere());
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(endSessions).toHaveBeenCalledWith({ sessionIds: [2, 3] });
    expect((await screen.findByRole("status")).textContent).toBe("2 sessions were ended: those browsers are signed out.");
  });

  it("should say why the server refused and keep the sessions", async () => {
    renderPage(sessionsServer([thisSession, phone], "Sessions cannot be ended right now.").client);
    await screen.findByRole("table", { name: "Your sessions" });
    fireEvent.click(within(rows()[1]!).getByRole("button", { name: "End" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Sessions cannot be ended right now.");
    expect(rows()).toHaveLength(2);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
