import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import type { StudyClient } from "@atelier/site-api";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { renderStudyScreens, studyScreen } from "./study-screen-test-support.tsx";

vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true }) }));

const { FlashcardSessionPage, loadFlashcardSession } = await import("./FlashcardSessionPage.tsx");
const { loadStudySetup, StudySetupPage } = await import("./StudySetupPage.tsx");

const pairs = [
  { id: "p1", english: "Good morning", swedish: "God morgon", current_box: 1 as const },
  { id: "p2", english: "Thank you", swedish: "Tack", current_box: 1 as const },
];

const stats = {
  id: "g1", name: "Bron", is_public: true, is_owner: false, can_export: false, total: 2, not_started: 2, in_progress: 0, memorized: 0,
  box_distribution: { box1: 0, box2: 0, box3: 0, box4: 0 }, total_reviews: 0, accuracy: 0, reviewing: 0, learned: 0, dueToday: 0,
  anonymous_limit_reached: false, hidden_pairs: [], due_forecast: [0, 0, 0, 0, 0, 0, 0],
  pairs: pairs.map((pair, index) => ({ ...pair, confidence: 1, number: index + 1 })), pairs_page: { page: 1, page_size: 10, total: 2 }, doubtful_count: 0,
};

function fakeStudyClient(overrides: Partial<Record<keyof StudyClient, unknown>> = {}): StudyClient {
  return {
    loadStats: vi.fn().mockResolvedValue({ status: "ok", data: stats }),
    loadPairs: vi.fn().mockResolvedValue({ status: "ok", data: { pairs } }),
    ratePair: vi.fn().mockImplementation(async (pairId: string) => ({ status: "ok", data: { pair: { id: pairId, current_box: 2 }, memorized: 0, anonymous_limit_reached: false } })),
    markStudied: vi.fn().mockResolvedValue({ status: "ok", data: {} }),
    deletePair: vi.fn().mockResolvedValue({ status: "ok", data: {} }),
    ...overrides,
  } as unknown as StudyClient;
}

const setupScreen = studyScreen("/study/:groupId/config", (client) => loadStudySetup(client, "g1"), (props) => <StudySetupPage groupId="g1" {...props} />);
const sessionScreen = studyScreen("/study/:groupId/session", (client) => loadFlashcardSession(client, "g1"), (props) => <FlashcardSessionPage groupId="g1" {...props} />);

function renderSession(client: StudyClient, config: object = { mode: "test", range: "all", cardCount: 20 }) {
  return renderStudyScreens(client, [sessionScreen], { pathname: "/study/g1/session", state: config, key: "k1" });
}

/** A browser's speech synthesis with these voices, recording what it is asked to read. */
function installSpeechSynthesis(voices: { lang: string; name: string }[]) {
  const spoken: { text: string; lang: string }[] = [];
  vi.stubGlobal(
    "SpeechSynthesisUtterance",
    class {
      voice: unknown = null;
      lang = "";
      constructor(public text: string) {}
    },
  );
  vi.stubGlobal("speechSynthesis", {
    getVoices: () => voices,
    addEventListener: () => {},
    removeEventListener: () => {},
    cancel: () => {},
    speak: (utterance: { text: string; lang: string }) => spoken.push({ text: utterance.text, lang: utterance.lang }),
  });
  return spoken;
}

describe("given a learner who chose to see the Swedish side first", () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(cleanup);

  it("should keep the choice from the setup and show the Swedish sentence above the English one in the session", async () => {
    const client = fakeStudyClient();
    renderStudyScreens(client, [setupScreen, sessionScreen], "/study/g1/config");
    fireEvent.click(await screen.findByLabelText("Swedish, then English"));
    fireEvent.click(screen.getByRole("button", { name: "Study" }));
    // The setup stays until the session's loader is done: its preview lists the same sentences, the card is the session's.
    const card = await screen.findByRole("button", { name: /^Side B · Swedish/ });
    expect(within(card).getByText("God morgon")).toBeTruthy();
    expect(within(card).queryByText("Good morning")).toBeNull();
    fireEvent.keyDown(document.body, { key: " " });
    const sides = Array.from(card.querySelectorAll(".flashcard__text")).map((side) => [side.getAttribute("lang"), side.textContent]);
    expect(sides).toEqual([
      ["sv", "God morgon"],
      ["en", "Good morning"],
    ]);
    expect(window.localStorage.getItem("atelier:study-direction")).toBe("swedish-first");
  });
});

describe("given a session under way", () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    useLoginModalStore.setState({ state: "closed" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("should move the progress bar on with each answer", async () => {
    renderSession(fakeStudyClient());
    await screen.findByText("Good morning");
    const progress = screen.getByRole("progressbar", { name: "Cards answered in this session" });
    expect(progress.getAttribute("aria-valuenow")).toBe("0");
    expect(progress.getAttribute("aria-valuemax")).toBe("2");
    fireEvent.keyDown(document.body, { key: "2" });
    await screen.findByText("Thank you");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("1");
    expect((screen.getByRole("progressbar").firstElementChild as HTMLElement).style.width).toBe("50%");
  });

  it("should offer a review of the learned cards alone once every loaded card is memorized", async () => {
    const memorizedPairs = pairs.map((pair) => ({ ...pair, current_box: 5 as const }));
    const client = fakeStudyClient({ loadPairs: vi.fn().mockResolvedValue({ status: "ok", data: { pairs: memorizedPairs } }) });
    renderSession(client, { mode: "study", range: "all", cardCount: 20 });
    expect(await screen.findByRole("heading", { name: "You have memorized all these cards" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Review 10 cards" }));
    expect(client.loadPairs).toHaveBeenLastCalledWith("g1", { mode: "test", range: "memorized", cardCount: 10 });
  });

  it("should hide the Read aloud buttons when the browser has no voice", async () => {
    installSpeechSynthesis([]);
    renderSession(fakeStudyClient());
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: " " });
    expect(screen.queryByRole("button", { name: /^Read aloud/ })).toBeNull();
  });

  it("should hide the Read aloud buttons when the browser has no speech synthesis at all", async () => {
    renderSession(fakeStudyClient());
    await screen.findByText("Good morning");
    fireEvent.keyDown(document.body, { key: " " });
    expect(screen.queryByRole("button", { name: /^Read aloud/ })).toBeNull();
  });

  it("should read the visible side aloud with S, in the side's language, and offer a button per side with a voice", async () => {
    const spoken = installSpeechSynthesis([
      { lang: "en-GB", name: "Daniel" },
      { lang: "sv-SE", name: "Alva" },
    ]);
    renderSession(fakeStudyClient());
    await screen.findByText("Good morning");
    expect(screen.getByRole("button", { name: "Read aloud (English)" })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "s" });
    expect(spoken).toEqual([{ text: "Good morning", lang: "en-GB" }]);
    fireEvent.keyDown(document.body, { key: " " });
    expect(screen.getByRole("button", { name: "Read aloud (Swedish)" })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "S" });
    expect(spoken.at(-1)).toEqual({ text: "God morgon", lang: "sv-SE" });
  });
});
