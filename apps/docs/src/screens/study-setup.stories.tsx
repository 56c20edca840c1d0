import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { KnownConfiguration } from "../../../web/app/providers/provider-test-support.tsx";
import { loadStudySetup, StudySetupLoading, StudySetupPage } from "../../../web/app/study/StudySetupPage.tsx";
import { StudyClientProvider } from "../../../web/app/study/study-client.ts";
import { RouteStory } from "./route-story.tsx";
import { createFakeStudyApi, type FakeStudyApiOptions } from "./fake-study-api.ts";
import "../../../web/app/app.css";

type SetupStoryArgs = FakeStudyApiOptions & { signedIn: boolean };

const meta = {
  title: "Screens/Study/Setup",
  render: ({ signedIn, ...apiOptions }) => {
    const study = createFakeStudyApi(apiOptions);
    return (
      <RouteStory
        path="/study/:groupId/config"
        initialEntry="/study/film/config"
        load={() => loadStudySetup(study, "film")}
        Screen={({ data, reload }) => <StudySetupPage groupId="film" data={data} reload={reload} />}
        Loading={StudySetupLoading}
        wrap={(screen) => (
          <StudyClientProvider client={study}>
            <KnownConfiguration providers={[]} signedIn={signedIn}>
              <main className="site-main">{screen}</main>
            </KnownConfiguration>
          </StudyClientProvider>
        )}
      />
    );
  },
  args: { signedIn: true, box: 2, canExport: true },
  parameters: { layout: "fullscreen" },
  globals: { viewport: { value: "laptop1366" } },
} satisfies Meta<SetupStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const OwnDeck: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findByText("Due in the next 7 days")).toBeVisible();
    await expect(page.getByText("Cards per box")).toBeVisible();
    await expect(page.getByRole("link", { name: "Export for Anki" })).toBeVisible();
  },
};

export const SharedDeckWithoutAPlan: Story = {
  args: { canExport: false },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findByText(/Exporting a deck someone shared is part of/)).toBeVisible();
    await expect(page.queryByRole("link", { name: "Export for Anki" })).toBeNull();
  },
};

export const VisitorPhoneDark: Story = {
  args: { signedIn: false, canExport: false, box: undefined },
  globals: { viewport: { value: "phone390" }, theme: "dark" },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await expect(await page.findByText("Sign in to export flashcards.")).toBeVisible();
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390);
  },
};

export const CheckDoubtfulPairs: Story = {
  args: { doubtfulPairs: [2, 5] },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await userEvent.click(await page.findByLabelText("Check doubtful pairs (2 pairs)"));
    const numbers = () => within(page.getByRole("table")).getAllByRole("row").slice(1).map((row) => row.querySelector("td")?.textContent);
    // Only the doubtful pairs (the server's page), each with its number in the film and the mark a screen reader reads.
    await waitFor(() => expect(numbers()).toEqual(["2?Check this pair", "5?Check this pair"]));
  },
};

export const OwnerFixesAPair: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await userEvent.click(await page.findByRole("button", { name: "Fix pair 2" }));
    const editor = within(page.getByRole("form", { name: "Fix pair 2" }));
    const swedish = editor.getByLabelText("Swedish");
    await userEvent.clear(swedish);
    await userEvent.type(swedish, "God morgon, Anna!");
    await userEvent.click(editor.getByRole("button", { name: "Save" }));
    // The typed text is also the textarea's own text while the save is on its way: the row's cell is what must show it,
    // once the editor has closed.
    await waitFor(() => expect(page.queryByRole("form", { name: "Fix pair 2" })).toBeNull());
    await expect(await page.findByRole("cell", { name: "God morgon, Anna!" })).toBeVisible();
    await userEvent.click(page.getByRole("button", { name: "Fix pair 2" }));
    await userEvent.click(within(page.getByRole("form", { name: "Fix pair 2" })).getByRole("button", { name: "Merge with next" }));
    await waitFor(() => expect(page.queryByRole("form", { name: "Fix pair 2" })).toBeNull());
    await expect(await page.findByRole("cell", { name: "God morgon, Anna! Sov du gott?" })).toBeVisible();
  },
};

export const LearnerHidesAPair: Story = {
  args: { isOwner: false, canExport: false },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await userEvent.click(await page.findByRole("button", { name: "Hide pair 1" }));
    await expect(await page.findByText("Hidden pairs (1)")).toBeVisible();
    await expect(page.queryByRole("button", { name: /^Fix pair/ })).toBeNull();
  },
};
