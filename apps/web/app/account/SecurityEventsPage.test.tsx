import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSiteHttp } from "@atelier/site-api";
import { createSecurityEventsClient, describeSecurityEvent, SECURITY_EVENTS_ERROR_MESSAGE, SECURITY_EVENTS_PATH } from "@atelier/site-api";
import { loadSecurityEvents, SecurityEventsPage } from "./SecurityEventsPage.tsx";

afterEach(cleanup);

const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const answer = {
  retention_days: 180,
  events: [
    { type: "email_added", method: null, detail: "ada@example.org", ip_address: "203.0.113.9", user_agent: chrome, created_at: "2026-11-20T10:15:00.000Z" },
    { type: "signed_in", method: "password", detail: null, ip_address: "203.0.113.9", user_agent: chrome, created_at: "2026-11-20T10:00:00.000Z" },
    { type: "sign_in_failed", method: "password", detail: null, ip_address: null, user_agent: null, created_at: "2026-11-19T08:00:00.000Z" },
  ],
};

function clientAnswering(status: number, body: unknown) {
  const fetch = vi.fn(async (_request: Request) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
  return { fetch, client: createSecurityEventsClient(createSiteHttp({ fetch: fetch as unknown as typeof globalThis.fetch })) };
}

describe("given the events the server lists", () => {
  it("should say in words what happened, how and to what", () => {
    expect(describeSecurityEvent({ type: "signed_in", method: "code", detail: null })).toBe("Signed in with a code sent by e-mail");
    expect(describeSecurityEvent({ type: "email_made_primary", method: null, detail: "ada@example.org" })).toBe("Primary e-mail address changed: ada@example.org");
    expect(describeSecurityEvent({ type: "sessions_ended", method: null, detail: "3" })).toBe("3 sessions ended");
    expect(describeSecurityEvent({ type: "third_party_account_disconnected", method: null, detail: "GitHub" })).toBe("Third-party account disconnected: GitHub");
    expect(describeSecurityEvent({ type: "recovery_codes_generated", method: null, detail: null })).toBe("New recovery codes generated");
    expect(describeSecurityEvent({ type: "something_new", method: null, detail: null })).toBe("something new");
  });

  it("should show them newest first with the time, the browser and the address, and the retention time", async () => {
    const { fetch, client } = clientAnswering(200, answer);
    render(<SecurityEventsPage data={await loadSecurityEvents(client)} />);
    const table = screen.getByRole("table", { name: "Your account's history, newest first" });
    expect(new URL(fetch.mock.calls[0]![0].url).pathname).toBe(SECURITY_EVENTS_PATH);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[1]?.textContent)).toEqual(["E-mail address added: ada@example.org", "Signed in with a password", "Failed sign-in with a password"]);
    expect(within(rows[1]!).getByText("Chrome 156 on Linux")).toBeTruthy();
    expect(within(rows[2]!).getAllByText("–")).toHaveLength(2);
    expect(screen.getByText(/from the last 180 days/)).toBeTruthy();
  });

  it("should say so when nothing happened", async () => {
    render(<SecurityEventsPage data={await loadSecurityEvents(clientAnswering(200, { retention_days: 180, events: [] }).client)} />);
    expect(screen.getByText("Nothing has happened to your account in that time.")).toBeTruthy();
  });

  it("should say the history could not be loaded when the server refuses or answers something else", async () => {
    render(<SecurityEventsPage data={await loadSecurityEvents(clientAnswering(401, { message: "Please sign in to see what happened to your account." }).client)} />);
    expect(screen.getByRole("alert").textContent).toBe(SECURITY_EVENTS_ERROR_MESSAGE);
    cleanup();
    render(<SecurityEventsPage data={await loadSecurityEvents(clientAnswering(200, { events: "none" }).client)} />);
    expect(screen.getByRole("alert").textContent).toBe(SECURITY_EVENTS_ERROR_MESSAGE);
  });
});
