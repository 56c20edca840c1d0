import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { StudyClient } from "@atelier/site-api";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { FlashcardSessionPage, loadFlashcardSession } from "./FlashcardSessionPage.tsx";

// The login modal loads the identity service's configuration when it opens; these tests are about when it opens, and
// have no server to ask (happy-dom's page origin would be tried, and the refused connection logged).
vi.mock("../lib/auth.ts", async (importOriginal) => ({ ...(await importOriginal<object>()), ensureAuthenticationStatusLoaded: vi.fn() }));
import { renderStudyScreens, studyScreen } from "./study-screen-test-support.tsx";

const fakeClient = {
  loadStats: vi.fn(),
  loadPairs: vi.fn(),
  ratePair: vi.fn(),
  markStudied: vi.fn(),
  deletePair: vi.fn(),
};

const stats = {
  id: "g1", name: "Bron", is_public: true, is_owner: false, total: 2, not_started: 2, in_progress: 0, memorized: 0,
  box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 }, total_reviews: 0, accuracy: 0, reviewing: 0, learned: 0, dueToday: 0,
  anonymous_limit_reached: false, pairs: [],
};
const pairs = [
  { id: "p1", english: "Good morning", swedish: "God morgon", current_box: 1 },
  { id: "p2", english: "Thank you", swedish: "Tack", current_box: 1 },
];

const sessionScreen = studyScreen("/study/:groupId/session", (client) => loadFlashcardSession(client, "g1"), (props) => <FlashcardSessionPage groupId="g1" {...props} />);

function renderSession(config: object = { mode: "test", range: "all", cardCount: 20 }) {
  return renderStudyScreens(fakeClient as unknown as StudyClient, [sessionScreen], { pathname: "/study/g1/session", state: config, key: "k1" });
}

/** The card's "More" menu, a `<details>` element, and its summary. */
function moreMenuOfCard() {
  const summary = screen.getByLabelText("More actions for this card");
  return { summary, menu: summary.closest("details") as HTMLDetailsElement };
}

describe("given the flashcard session", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    window.sessionStorage.clear();
    useLoginModalStore.setState({ state: "closed" });
    fakeClient.loadStats.mockResolvedValue({ status: "ok", data: stats });
    fakeClient.loadPairs.mockResolvedValue({ status: "ok", data: { pairs } });
  });
  afterEach(cleanup);

  it("should flip with Space and move on after 'I got it Right' back on side A", async () => {
    fakeClient.ratePair.mockResolvedValue({ status: "ok", data: { pair: { id: "p1", current_box: 2 }, memorized: 0, anonymous_limit_reached: false } });
    renderSession();
    expect(await screen.findByText("Good morning")).toBeTruthy();
    expect(screen.getByText("1 / 2")).toBeTruthy();
    expect(screen.queryByText("God morgon")).toBeNull();
    fireEvent.keyDown(document.body, { key: " " });
    // After the flip both sentences show, the English one above.
    expect(screen.getByText("God morgon")).toBeTruthy();
    expect(screen.getByText("Good morning")).toBeTruthy();
    // Each rating button says when the card comes back.
    expect(screen.getByRole("button", { name: /^I will try Again/ }).textContent).toBe("I will try Againback today");
    expect(screen.getByRole("button", { name: /^I got it Right/ }).textContent).toBe("I got it Rightback tomorrow");
    fireEvent.click(screen.getByRole("button", { name: /^I got it Right/ }));
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(screen.getByText("2 / 2")).toBeTruthy();
    expect(fakeClient.ratePair).toHaveBeenCalledWith("p1", true);
    // The session is saved by an effect after the render that shows the new card.
    await waitFor(() => expect(JSON.parse(window.sessionStorage.getItem("flashcard") ?? "{}")).toMatchObject({ groupId: "g1", state: { index: 1 } }));
  });

  it("should move the counts with the rating's answer instead of loading the group's stats again", async () => {
    fakeClient.ratePair.mockResolvedValue({
      status: "ok",
      data: { pair: { id: "p1", current_box: 2 }, memorized: 0, anonymous_limit_reached: false, learning_state: { before: "new", after: "in-progress" } },
    });
    renderSession();
    expect(await screen.findByText("Good morning")).toBeTruthy();
    const countOf = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
    expect(countOf("New Cards")).toBe("2");
    fireEvent.keyDown(document.body, { key: " " });
    fireEvent.click(screen.getByRole("button", { name: /^I got it Right/ }));
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(countOf("New Cards")).toBe("1");
    expect(countOf("In Progress")).toBe("1");
    expect(fakeClient.loadStats).toHaveBeenCalledTimes(1);
  });

  it("should show the spec's loading error with the server's sentence when it refuses a large session for a while", async () => {
    const sentence = "At most 10 sessions of more than 1,000 cards can start in a minute. Please wait 42 seconds, or choose fewer cards.";
    fakeClient.loadPairs.mockResolvedValue({ status: "error", message: "Failed to load flashcard pairs", httpStatus: 429, detail: sentence });
    renderSession();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(`Failed to load flashcard pairs${sentence}`);
    expect([...alert.querySelectorAll("p")].map((paragraph) => paragraph.textContent)).toEqual(["Failed to load flashcard pairs", sentence]);
  });

  it("should show the film's neighbouring lines on demand, in the answer's language too once flipped, and toggle them with C", async () => {
    fakeClient.loadPairs.mockResolvedValue({
      status: "ok",
      data: {
        pairs: [
          { ...pairs[0], context: { before: { english: "Wake up!", swedish: "Vakna!" }, after: { english: "Coffee?", swedish: "Kaffe?" } } },
          { ...pairs[1], context: { before: null, after: null } },
        ],
      },
    });
    renderSession();
    await screen.findByText("Good morning");
    const context = screen.getByText("Context from the film").closest("details") as HTMLDetailsElement;
    expect(context.open).toBe(false);
    fireEvent.keyDown(document.body, { key: "c" });
    expect(context.open).toBe(true);
    expect(screen.getByText("Wake up!")).toBeTruthy();
    expect(screen.getByText("Coffee?")).toBeTruthy();
    expect(screen.queryByText("Vakna!")).toBeNull();
    fireEvent.keyDown(document.body, { key: " " });
    expect(screen.getByText("Vakna!").getAttribute("lang")).toBe("sv");
    fireEvent.keyDown(document.body, { key: "C" });
    expect(context.open).toBe(false);
  });

  it("should summarize the session once every card has an answer", async () => {
    fakeClient.ratePair
      .mockResolvedValueOnce({ status: "ok", data: { pair: { id: "p1", current_box: 2 }, memorized: 0, anonymous_limit_reached: false } })
      .mockResolvedValueOnce({ status: "ok", data: { pair: { id: "p2", current_box: 1 }, memorized: 0, anonymous_limit_reached: false } });
    renderSession();
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    await screen.findByText("Thank you");
    fireEvent.keyDown(document.body, { key: "ArrowLeft" });
    expect(await screen.findByRole("heading", { name: "Session summary" })).toBeTruthy();
    expect(screen.getByText("The first of these cards comes back today.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Keep going" }));
    expect(screen.queryByRole("heading", { name: "Session summary" })).toBeNull();
  });

  it("should delete a pair from the More menu and bring it back with Undo, telling the server nothing", async () => {
    renderSession();
    await screen.findByText("Good morning");
    fireEvent.click(screen.getByRole("button", { name: "Delete pair" }));
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(screen.queryByText("Good morning")).toBeNull();
    fireEvent.keyDown(document.body, { key: "z" });
    expect(await screen.findByText("Good morning")).toBeTruthy();
    expect(screen.getByText("1 / 2")).toBeTruthy();
    expect(fakeClient.deletePair).not.toHaveBeenCalled();
  });

  it("should move focus to the card shown after a deletion and after its undo, and to Undo when no card is left", async () => {
    renderSession();
    await screen.findByText("Good morning");
    const deletePairButton = screen.getByRole("button", { name: "Delete pair" });
    deletePairButton.focus();
    fireEvent.click(deletePairButton);
    await screen.findByText("Thank you");
    expect(document.activeElement?.classList.contains("flashcard")).toBe(true);
    expect(document.activeElement?.textContent).toContain("Thank you");

    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    await screen.findByText("Good morning");
    expect(document.activeElement?.classList.contains("flashcard")).toBe(true);
    expect(document.activeElement?.textContent).toContain("Good morning");

    fireEvent.click(screen.getByRole("button", { name: "Delete pair" }));
    await screen.findByText("Thank you");
    const undoButton = screen.getByRole("button", { name: "Undo" });
    undoButton.focus();
    fireEvent.keyDown(undoButton, { key: "z" });
    await screen.findByText("Good morning");
    expect(document.activeElement?.classList.contains("flashcard")).toBe(true);
    expect(document.activeElement?.textContent).toContain("Good morning");

    fakeClient.deletePair.mockResolvedValue({ status: "ok", data: undefined });
    fireEvent.click(screen.getByRole("button", { name: "Delete pair" }));
    await screen.findByText("Thank you");
    fireEvent.click(screen.getByRole("button", { name: "Delete pair" }));
    await vi.waitFor(() => expect(screen.queryByText("Thank you")).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Undo" }));
  });

  it("should close the More menu on Escape and focus its summary, without flipping, rating or moving the card", async () => {
    renderSession();
    await screen.findByText("Good morning");
    const { summary: menuSummary, menu } = moreMenuOfCard();
    menu.open = true;
    const deletePairButton = screen.getByRole("button", { name: "Delete pair" });
    deletePairButton.focus();
    fireEvent.keyDown(deletePairButton, { key: "Escape" });
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(menuSummary);
    expect(screen.queryByText("God morgon")).toBeNull();
    expect(screen.getByText("1 / 2")).toBeTruthy();
    expect(fakeClient.ratePair).not.toHaveBeenCalled();
  });

  it("should leave Enter and Space on the More menu's summary to open it instead of flipping the card", async () => {
    renderSession();
    await screen.findByText("Good morning");
    const menuSummary = moreMenuOfCard().summary;
    menuSummary.focus();
    // `fireEvent` answers false when a listener prevented the key's default action, here the opening of the menu.
    expect(fireEvent.keyDown(menuSummary, { key: "Enter" })).toBe(true);
    expect(fireEvent.keyDown(menuSummary, { key: " " })).toBe(true);
    expect(screen.queryByText("God morgon")).toBeNull();
  });

  it("should close the More menu when its pair is deleted, the next card showing without it open", async () => {
    renderSession();
    await screen.findByText("Good morning");
    moreMenuOfCard().menu.open = true;
    fireEvent.click(screen.getByRole("button", { name: "Delete pair" }));
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(moreMenuOfCard().menu.open).toBe(false);
  });

  it("should close the More menu when the learner goes to the next card", async () => {
    renderSession({ mode: "study", range: "all", cardCount: 20 });
    await screen.findByText("Good morning");
    moreMenuOfCard().menu.open = true;
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(moreMenuOfCard().menu.open).toBe(false);
  });

  it("should open 'Keep Up the Great Work!' when a rating answers 403", async () => {
    fakeClient.ratePair.mockResolvedValue({ status: "error", message: "Failed to save the rating", httpStatus: 403 });
    renderSession();
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: "2" });
    await vi.waitFor(() => expect(useLoginModalStore.getState().state).toBe("open"));
    expect(useLoginModalStore.getState().options.title).toBe("Keep Up the Great Work!");
  });

  it("should say beside the blocked buttons why they only bring the dialog back, once the dialog is closed", async () => {
    fakeClient.ratePair.mockResolvedValue({ status: "error", message: "Failed to save the rating", httpStatus: 403 });
    renderSession();
    await screen.findByText("Good morning");
    expect(screen.queryByText("You have memorized 5 cards: log in or sign up to keep studying.")).toBeNull();
    fireEvent.keyDown(document.body, { key: "2" });
    await vi.waitFor(() => expect(useLoginModalStore.getState().state).toBe("open"));
    useLoginModalStore.getState().close();
    expect(await screen.findByText("You have memorized 5 cards: log in or sign up to keep studying.")).toBeTruthy();
    expect(screen.getByRole("button", { name: /I got it Right/ }).getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Log in to keep studying" }));
    expect(useLoginModalStore.getState()).toMatchObject({ state: "open", options: { title: "Keep Up the Great Work!" } });
  });

  it("should load the group's stats again through the route's loader once the cards are marked as studied", async () => {
    fakeClient.markStudied.mockResolvedValue({ status: "ok", data: { marked: 2 } });
    renderSession({ mode: "study", range: "all", cardCount: 20 });
    await screen.findByText("Good morning");
    expect(fakeClient.loadStats).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Mark as Studied" }));
    expect(await screen.findByRole("heading", { name: "Well done: these cards are studied" })).toBeTruthy();
    await waitFor(() => expect(fakeClient.loadStats).toHaveBeenCalledTimes(2));
    expect(fakeClient.markStudied).toHaveBeenCalledWith("g1", ["p1", "p2"]);
  });

  it("should restore the session saved for its history entry after a reload, without asking for cards again", async () => {
    fakeClient.ratePair.mockResolvedValue({ status: "ok", data: { pair: { id: "p1", current_box: 2 }, memorized: 0, anonymous_limit_reached: false } });
    renderSession();
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: "2" });
    expect(await screen.findByText("Thank you")).toBeTruthy();
    await waitFor(() => expect(JSON.parse(window.sessionStorage.getItem("flashcard") ?? "{}")).toMatchObject({ state: { index: 1 } }));
    cleanup();
    renderSession();
    expect(await screen.findByText("Thank you")).toBeTruthy();
    expect(screen.getByText("2 / 2")).toBeTruthy();
    expect(fakeClient.loadPairs).toHaveBeenCalledTimes(1);
  });

  it("should let a learner who signed in from 'Keep Up the Great Work!' go on after the reload, the limit being the server's to say", async () => {
    fakeClient.ratePair.mockResolvedValueOnce({ status: "ok", data: { pair: { id: "p1", current_box: 5 }, memorized: 5, anonymous_limit_reached: true } });
    renderSession();
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: "2" });
    await vi.waitFor(() => expect(useLoginModalStore.getState().options.title).toBe("Keep Up the Great Work!"));
    await waitFor(() => expect(JSON.parse(window.sessionStorage.getItem("flashcard") ?? "{}")).toMatchObject({ state: { anonymousLimit: "reached" } }));
    // Signed in from the dialog: the progress merges and the page reloads; the stats now answer for the account.
    cleanup();
    useLoginModalStore.setState({ state: "closed" });
    fakeClient.ratePair.mockResolvedValue({ status: "ok", data: { pair: { id: "p2", current_box: 2 }, memorized: 5, anonymous_limit_reached: false } });
    renderSession();
    expect(await screen.findByText("Thank you")).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "2" });
    await waitFor(() => expect(fakeClient.ratePair).toHaveBeenLastCalledWith("p2", true));
    expect(useLoginModalStore.getState().state).toBe("closed");
  });

  it("should say 'No flashcard pairs available' for an empty result", async () => {
    fakeClient.loadPairs.mockResolvedValue({ status: "ok", data: { pairs: [] } });
    renderSession();
    expect(await screen.findByText("No flashcard pairs available")).toBeTruthy();
  });
});
