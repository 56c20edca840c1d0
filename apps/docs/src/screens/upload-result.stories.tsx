import type { Meta, StoryObj } from "@storybook/react-vite";
import { MemoryRouter } from "react-router";
import { expect, userEvent, within } from "storybook/test";
import { StudyClientProvider } from "../../../web/app/study/study-client.ts";
import { UploadForm } from "../../../web/app/study/UploadForm.tsx";
import { createFakeStudyApi } from "./fake-study-api.ts";
import "../../../web/app/app.css";

const pairCount = 559;

/** The server's answer to an upload of a Swedish file 14.6 s behind the English one. */
async function fakeUpload() {
  return {
    status: "ok" as const,
    data: {
      group: { id: "bron", name: "The Bridge S01E01", created_at: "2025-03-01T10:00:00Z", is_public: true, owner_id: "learner", is_owner: true, pair_count: pairCount },
      report: { offsetMilliseconds: -14_600, frameRateRatio: 1, englishCoverage: 0.97, swedishCoverage: 0.96, meanOverlap: 0.71, pairCount },
      pair_count: pairCount,
    },
  };
}

const meta = {
  title: "Screens/Study/Upload result",
  render: () => (
    <StudyClientProvider client={{ ...createFakeStudyApi(), uploadSubtitles: fakeUpload }}>
      <MemoryRouter initialEntries={["/upload-subtitles"]}>
        <main className="site-main">
          <section className="page study-page">
            <h1>Learn Swedish from film subtitles</h1>
            <div className="study-upload">
              <UploadForm />
            </div>
          </section>
        </main>
      </MemoryRouter>
    </StudyClientProvider>
  ),
  parameters: { layout: "fullscreen" },
  globals: { viewport: { value: "laptop1366" } },
  play: async ({ canvasElement }) => {
    const page = within(canvasElement);
    await userEvent.upload(page.getByLabelText("Swedish subtitles (XML)"), new File(["<document/>"], "The.Bridge.S01E01.sv.xml", { type: "text/xml" }));
    await userEvent.upload(page.getByLabelText("English subtitles (XML)"), new File(["<document/>"], "The.Bridge.S01E01.en.xml", { type: "text/xml" }));
    await userEvent.click(page.getByRole("button", { name: "Upload" }));
    await expect(await page.findByRole("heading", { name: "559 sentence pairs; the Swedish file was 14.6 s later and has been matched." })).toBeVisible();
    await expect(page.getByRole("link", { name: "Study The Bridge S01E01" })).toBeVisible();
    await expect(page.getByText("Alignment figures").closest("details")?.open).toBe(false);
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(document.documentElement.clientWidth);
  },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const Laptop: Story = {};

export const LaptopDark: Story = { globals: { viewport: { value: "laptop1366" }, theme: "dark" } };

export const Phone: Story = { globals: { viewport: { value: "phone390" } } };

export const PhoneDark: Story = { globals: { viewport: { value: "phone390" }, theme: "dark" } };
