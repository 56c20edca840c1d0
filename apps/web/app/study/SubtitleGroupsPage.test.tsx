import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";

const { fakeClient } = vi.hoisted(() => ({ fakeClient: { loadGroups: vi.fn() } }));
vi.mock("./study-client.ts", async (importOriginal) => ({ ...(await importOriginal<object>()), studyClient: fakeClient }));
vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true }) }));

const { SubtitleGroupsPage, describePairCount } = await import("./SubtitleGroupsPage.tsx");

function group(name: string, pairCount: number) {
  return { id: name, name, created_at: "2025-01-01T00:00:00Z", is_public: true, owner_id: "u1", is_owner: true, pair_count: pairCount };
}

describe("given a count of sentence pairs", () => {
  it("should say '1 pair' for one and 'n pairs' for any other number", () => {
    expect(describePairCount(1)).toBe("1 pair");
    expect(describePairCount(0)).toBe("0 pairs");
    expect(describePairCount(1559)).toBe("1,559 pairs");
  });
});

describe("given the saved groups of a signed-in user", () => {
  afterEach(cleanup);

  it("should write '1 pair' in the list and in the delete confirmation of a group with one pair", async () => {
    fakeClient.loadGroups.mockResolvedValue({ status: "ok", data: { groups: [group("Short film", 1), group("Long film", 559)] } });
    render(
      <MemoryRouter>
        <SubtitleGroupsPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText("1 pair")).toBeTruthy();
    expect(screen.getByText("559 pairs")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Delete Short film" }));
    expect(await screen.findByText("Short film and its 1 pair will be deleted.")).toBeTruthy();
  });
});
