import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { LoginModal } from "../../../web/app/login-modal/LoginModal.tsx";
import { useLoginModalStore } from "../../../web/app/login-modal/login-modal-store.ts";
import { KnownConfiguration, localProvider } from "../../../web/app/providers/provider-test-support.tsx";
import { FlashcardSessionLoading, FlashcardSessionPage, loadFlashcardSession } from "../../../web/app/study/FlashcardSessionPage.tsx";
import { StudyClientProvider } from "../../../web/app/study/study-client.ts";
import { createFakeStudyApi, type FakeStudyApiOptions } from "./fake-study-api.ts";
import { RouteStory } from "./route-story.tsx";
import "../../../web/app/app.css";

type SessionStoryArgs = FakeStudyApiOptions & { mode: "study" | "test"; range: "all" | "new" | "in-progress" };

function SessionOnAPage({ mode, range, ...apiOptions }: SessionStoryArgs) {
  window.sessionStorage.clear();
  useLoginModalStore.setState({ state: "closed", step: "initial", options: {} });
  // One fake API for the story's whole life: it keeps the boxes the ratings move.
  const [study] = useState(() => createFakeStudyApi(apiOptions));
  return (
    <RouteStory
      path="/study/:groupId/session"
      initialEntry={{ pathname: "/study/film/session", state: { mode, range, cardCount: 5, startIndex: 1, endIndex: 8 }, key: `${mode}-${range}` }}
      load={() => loadFlashcardSession(study, "film")}
      Screen={({ data, reload }) => <FlashcardSessionPage groupId="film" data={data} reload={reload} />}
      Loading={FlashcardSessionLoading}
      wrap={(screen) => (
        <StudyClientProvider client={study}>
          <KnownConfiguration providers={[localProvider]}>
            <main className="site-main">{screen}</main>
            <LoginModal />
          </KnownConfiguration>
        </StudyClientProvider>
      )}
    />
  );
}

const meta = {
  title: "Screens/Study/Flashcard session",
  render: (args) => <SessionOnAPage {...args} />,
  args: { mode: "study", range: "all" },
  parameters: { layout: "fullscreen" },
  globals: { viewport: { value: "laptop1366" } },
} satisfies Meta<SessionStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The card itself (the film's neighbouring lines are on the page too, folded). */
async function findCard(canvasElement: HTMLElement) {
  return within(await within(canvasElement).findByRole("button", { name: /^Side A · English/ }));
}

export const SideA: Story = {
  play: async ({ canvasElement }) => {
    const card = await findCard(canvasElement);
    await expect(card.getByText("Wake up, it's half past seven.")).toBeVisible();
    await expect(card.queryByText("Vakna, klockan är halv åtta.")).toBeNull();
    await expect(within(canvasElement).getByText("1 / 5")).toBeVisible();
  },
};

export const SideBWithContext: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await findCard(canvasElement);
    await userEvent.keyboard(" ");
    await expect((await findCard(canvasElement)).getByText("Vakna, klockan är halv åtta.")).toBeVisible();
    await userEvent.keyboard("c");
    await expect(page.getByText("Good morning, Anna.")).toBeVisible();
    await expect(page.getByText("God morgon, Anna.")).toBeVisible();
  },
};

export const SideBPhoneDark: Story = { ...SideBWithContext, globals: { viewport: { value: "phone390" }, theme: "dark" } };

export const DoubtfulPair: Story = {
  args: { doubtfulPairs: [1] },
  play: async ({ canvasElement }) => {
    await findCard(canvasElement);
    await expect(within(canvasElement).getByText("Check this pair", { selector: ".flashcard-doubtful" })).toBeVisible();
  },
};

export const TestMode: Story = {
  args: { mode: "test" },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await findCard(canvasElement);
    await expect(page.getByText("Test mode")).toBeVisible();
    await expect(page.queryByRole("button", { name: "Next" })).toBeNull();
    await userEvent.click(page.getByRole("button", { name: /^I got it Right/ }));
    await expect(await page.findByText("2 / 5")).toBeVisible();
  },
};

export const Completion: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await findCard(canvasElement);
    await userEvent.click(page.getByRole("button", { name: "Mark as Studied" }));
    await expect(await page.findByRole("button", { name: "Test These Cards" })).toBeVisible();
  },
};

export const MemorizedAll: Story = {
  args: { box: 5 },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findByRole("button", { name: "Review 5 cards" })).toBeVisible();
  },
};

export const AnonymousPrompt: Story = {
  args: { anonymousLimitReached: true },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement.ownerDocument.body);
    await waitFor(() => expect(useLoginModalStore.getState().state).toBe("open"));
    const dialog = await page.findByRole("dialog");
    // The dialog fades in.
    await waitFor(() => expect(within(dialog).getByText("Keep Up the Great Work!")).toBeVisible());
    await expect(within(dialog).getByRole("button", { name: "Continue with email" })).toBeVisible();
  },
};

/** Every card answered (right, right, again, right, again): the summary replaces the card. */
export const SessionSummary: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await findCard(canvasElement);
    const answers = ["2", "2", "1", "2", "1"];
    for (const [index, key] of answers.entries()) {
      await waitFor(() => expect(page.getByRole("progressbar").getAttribute("aria-valuenow")).toBe(String(index)));
      await waitFor(() => expect(page.getByRole("button", { name: /^I got it Right/ })).toBeEnabled());
      await userEvent.keyboard(key);
    }
    await expect(await page.findByRole("heading", { name: "Session summary" })).toBeVisible();
    await expect(page.getByText("Moved up a box")).toBeVisible();
    await expect(page.getByRole("button", { name: "Keep going" })).toBeVisible();
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(document.documentElement.clientWidth);
  },
};

export const SessionSummaryDark: Story = { ...SessionSummary, globals: { viewport: { value: "laptop1366" }, theme: "dark" } };

export const SessionSummaryPhone: Story = { ...SessionSummary, globals: { viewport: { value: "phone390" } } };

export const SessionSummaryPhoneDark: Story = { ...SessionSummary, globals: { viewport: { value: "phone390" }, theme: "dark" } };
