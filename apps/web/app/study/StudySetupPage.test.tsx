import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import type { StudyClient } from "@atelier/site-api";
import { renderStudyScreens, studyScreen } from "./study-screen-test-support.tsx";

vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true }) }));

const { loadStudySetup, StudySetupPage } = await import("./StudySetupPage.tsx");

const pairs = [
  { id: "p1", english: "Good morning", swedish: "God morgon", current_box: 1 as const, confidence: 0.9 },
  { id: "p2", english: "Thank you", swedish: "Tack", current_box: 1 as const, confidence: 0.9 },
];

const stats = {
  id: "g1", name: "Bron", is_public: true, is_owner: true, can_export: true, total: 2, not_started: 2, in_progress: 0, memorized: 0,
  box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 }, total_reviews: 0, accuracy: 0, reviewing: 0, learned: 0, dueToday: 0,
  anonymous_limit_reached: false, hidden_pairs: [], due_forecast: [0, 0, 0, 0, 0, 0, 0], pairs,
};

const setupScreen = studyScreen("/study/:groupId/config", (client) => loadStudySetup(client, "g1"), (props) => <StudySetupPage groupId="g1" {...props} />);

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
