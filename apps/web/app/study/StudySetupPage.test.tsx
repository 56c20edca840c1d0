import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { StudyClient } from "@atelier/site-api";
import { renderStudyScreens, studyScreen } from "./study-screen-test-support.tsx";

vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true }) }));

const { availableCardCount, loadStudySetup, StudySetupPage } = await import("./StudySetupPage.tsx");

const pairs = [
  { id: "p1", english: "Good morning", swedish: "God morgon", current_box: 1 as const, confidence: 0.9, number: 1 },
  { id: "p2", english: "Thank you", swedish: "Tack", current_box: 1 as const, confidence: 0.9, number: 2 },
];

const stats = {
  id: "g1", name: "Bron", is_public: true, is_owner: true, can_export: true, total: 2, not_started: 2, in_progress: 0, memorized: 0,
  box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 }, total_reviews: 0, accuracy: 0, reviewing: 0, learned: 0, dueToday: 0,
  anonymous_limit_reached: false, hidden_pairs: [], due_forecast: [0, 0, 0, 0, 0, 0, 0], pairs, pairs_page: { page: 1, page_size: 10, total: 2 }, doubtful_count: 0,
};

/** A group of 12 pairs, 3 of them memorized and 2 doubtful: the loader's stats hold the first 10. */
const twelvePairs = Array.from({ length: 12 }, (_, index) => ({
  id: `p${index + 1}`,
  english: `English ${index + 1}`,
  swedish: `Svenska ${index + 1}`,
  current_box: (index % 4 === 0 ? 5 : 1) as 1 | 5,
  confidence: index === 4 || index === 10 ? 0.3 : 0.9,
  number: index + 1,
}));
const twelvePairStats = { ...stats, total: 12, not_started: 9, memorized: 3, pairs: twelvePairs.slice(0, 10), pairs_page: { page: 1, page_size: 10, total: 12 }, doubtful_count: 2 };

const setupScreen = studyScreen("/study/:groupId/config", (client) => loadStudySetup(client, "g1"), (props) => <StudySetupPage groupId="g1" {...props} />);

function numbersShown(): string[] {
  return within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.querySelector("td")?.textContent ?? "");
}

describe("given the owner of a deck fixing pairs in the setup's preview", () => {
  afterEach(cleanup);

  it("should give the focus back to the row's Fix after Escape, to Undo after a deletion, and to Fix again after Undo", async () => {
    const client = { loadStats: vi.fn().mockResolvedValue({ status: "ok", data: stats }), deletePair: vi.fn() };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [setupScreen], "/study/g1/config");
    fireEvent.click(await screen.findByRole("button", { name: "Fix pair 1" }));
    fireEvent.keyDown(screen.getByRole("form", { name: "Fix pair 1" }), { key: "Escape" });
    expect(screen.queryByRole("form", { name: "Fix pair 1" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Fix pair 1" }));

    fireEvent.click(screen.getByRole("button", { name: "Fix pair 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Undo deleting pair 1" }));
    fireEvent.click(screen.getByRole("button", { name: "Undo deleting pair 1" }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Fix pair 1" }));
    expect(client.deletePair).not.toHaveBeenCalled();
  });
});

describe("given a group larger than the preview's first page", () => {
  afterEach(cleanup);

  function renderTwelvePairs() {
    const client = {
      loadStats: vi.fn().mockResolvedValue({ status: "ok", data: twelvePairStats }),
      loadPreviewPage: vi.fn().mockImplementation(async (_groupId: string, query: { page: number; pageSize: number; onlyDoubtful: boolean }) => {
        const listed = twelvePairs.filter((pair) => !query.onlyDoubtful || pair.confidence < 0.5);
        const page = Math.min(query.page, Math.max(1, Math.ceil(listed.length / query.pageSize)));
        return { status: "ok", data: { pairs: listed.slice((page - 1) * query.pageSize, page * query.pageSize), page, page_size: query.pageSize, total: listed.length } };
      }),
      countAvailableCards: vi.fn().mockResolvedValue({ status: "ok", data: { available: 1 } }),
    };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [setupScreen], "/study/g1/config");
    return client;
  }

  it("should show the loader's first page, then ask the server for each other page, size and the doubtful pairs", async () => {
    const client = renderTwelvePairs();
    await screen.findByRole("button", { name: "Fix pair 10" });
    expect(numbersShown()).toEqual(["1", "2", "3", "4", "5?Check this pair", "6", "7", "8", "9", "10"]);
    expect(client.loadPreviewPage).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await screen.findByRole("button", { name: "Fix pair 12" });
    expect(client.loadPreviewPage).toHaveBeenLastCalledWith("g1", { page: 2, pageSize: 10, onlyDoubtful: false });
    expect(numbersShown()).toEqual(["11?Check this pair", "12"]);

    fireEvent.click(screen.getByLabelText("Check doubtful pairs (2 pairs)"));
    await waitFor(() => expect(numbersShown()).toEqual(["5?Check this pair", "11?Check this pair"]));
    expect(client.loadPreviewPage).toHaveBeenLastCalledWith("g1", { page: 1, pageSize: 10, onlyDoubtful: true });

    fireEvent.click(screen.getByLabelText("Check doubtful pairs (2 pairs)"));
    fireEvent.change(screen.getByLabelText("Cards per page"), { target: { value: "5" } });
    await waitFor(() => expect(numbersShown()).toEqual(["1", "2", "3", "4", "5?Check this pair"]));
    expect(client.loadPreviewPage).toHaveBeenLastCalledWith("g1", { page: 1, pageSize: 5, onlyDoubtful: false });
    expect(within(screen.getByRole("navigation", { name: "Preview pages" })).getByRole("button", { name: "Page 3" })).toBeTruthy();

    // Back to the loader's page: no call, the loader's pairs.
    const calls = client.loadPreviewPage.mock.calls.length;
    fireEvent.change(screen.getByLabelText("Cards per page"), { target: { value: "10" } });
    expect(numbersShown()).toHaveLength(10);
    expect(client.loadPreviewPage).toHaveBeenCalledTimes(calls);
  });

  it("should count the memorized cards of the whole group from the stats, and ask the server for a narrower window", async () => {
    const client = renderTwelvePairs();
    fireEvent.click(await screen.findByLabelText("Memorized"));
    expect(screen.getByText("3 cards available in this range.")).toBeTruthy();
    expect(client.countAvailableCards).not.toHaveBeenCalled();

    fireEvent.keyDown(screen.getByRole("slider", { name: "From" }), { key: "ArrowRight" });
    expect(await screen.findByText("1 card available in this range.")).toBeTruthy();
    expect(client.countAvailableCards).toHaveBeenLastCalledWith("g1", { range: "memorized", startIndex: 2, endIndex: 12 });
  });
});

describe("availableCardCount", () => {
  const counts = { total: 12, not_started: 9, in_progress: 0, memorized: 3 };

  it("should hold a type's count at most the window's size, and the server's memorized count for a narrower window", () => {
    expect(availableCardCount(counts, "new", 1, 4)).toBe(4);
    expect(availableCardCount(counts, "memorized", 1, 12, 1)).toBe(3);
    expect(availableCardCount(counts, "memorized", 2, 12, 1)).toBe(1);
    expect(availableCardCount(counts, "memorized", 11, 12)).toBe(2);
  });
});
