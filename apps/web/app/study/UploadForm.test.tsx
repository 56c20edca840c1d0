import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render as renderWithoutRouter, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import type { StudyClient } from "@atelier/site-api";
import { StudyClientProvider } from "./study-client.ts";
import { UploadForm } from "./UploadForm.tsx";

/** Renders the form with a study client whose `uploadSubtitles` is `upload`. */
function render(element: ReactElement, upload: StudyClient["uploadSubtitles"] = vi.fn()) {
  return renderWithoutRouter(
    <StudyClientProvider client={{ uploadSubtitles: upload } as Partial<StudyClient> as StudyClient}>
      <MemoryRouter>{element}</MemoryRouter>
    </StudyClientProvider>,
  );
}

afterEach(cleanup);

function chooseFile(label: string, file: File) {
  const input = screen.getByLabelText(label);
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  fireEvent.change(input);
}

describe("given the upload form", () => {
  it("should ask for both files without calling the server", async () => {
    const upload = vi.fn();
    render(<UploadForm />, upload);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Please upload both files");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should accept XML files only", async () => {
    const upload = vi.fn();
    render(<UploadForm />, upload);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["1\n00:00"], "en.srt"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Please upload XML files only");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should say which file is too large before sending anything", async () => {
    const upload = vi.fn();
    render(<UploadForm />, upload);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    const large = new File(["<xml/>"], "en.xml");
    Object.defineProperty(large, "size", { value: 6 * 1024 * 1024 });
    chooseFile("English subtitles (XML)", large);
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "The English file is too large (6.0 MB): each subtitle file must be smaller than 5 MB.");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should send public files by default and tell the result in words, with the figures behind a disclosure", async () => {
    const report = { offsetMilliseconds: -14_600, frameRateRatio: 1, englishCoverage: 0.97, swedishCoverage: 0.96, meanOverlap: 0.7, pairCount: 559, warning: "Check the files" };
    const upload = vi.fn(async () => ({
      status: "ok" as const,
      data: { group: { id: "g1", name: "Bron", created_at: "", is_public: true, owner_id: "u", is_owner: true, pair_count: 559 }, report, pair_count: 559 },
    }));
    render(<UploadForm />, upload);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.XML"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("heading", { name: "559 sentence pairs; the Swedish file was 14.6 s later and has been matched." })).toBeTruthy();
    expect(screen.getByText("Almost every line found its partner.")).toBeTruthy();
    expect(screen.getByText("Check the files")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Study Bron" }).getAttribute("href")).toBe("/study/g1/config");
    expect(screen.getByText("Alignment figures").closest("details")?.open).toBe(false);
    expect(upload).toHaveBeenCalledWith(expect.objectContaining({ isPublic: true }), expect.any(Function));
  });

  it("should empty the form once the files are uploaded, so that a second press asks for files instead of uploading the film again", async () => {
    const report = { offsetMilliseconds: 0, frameRateRatio: 1, englishCoverage: 1, swedishCoverage: 1, meanOverlap: 0.9, pairCount: 3 };
    const upload = vi.fn(async () => ({
      status: "ok" as const,
      data: { group: { id: "g1", name: "Bron", created_at: "", is_public: true, owner_id: "u", is_owner: true, pair_count: 3 }, report, pair_count: 3 },
    }));
    render(<UploadForm />, upload);
    fireEvent.change(screen.getByLabelText("Group name"), { target: { value: "Bron" } });
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    await screen.findByRole("link", { name: "Study Bron" });
    expect(screen.getByLabelText<HTMLInputElement>("Group name").value).toBe("");

    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Please upload both files");
    expect(upload).toHaveBeenCalledTimes(1);
  });

  it("should not link to the uploaded group once it has been deleted", async () => {
    const report = { offsetMilliseconds: 0, frameRateRatio: 1, englishCoverage: 1, swedishCoverage: 1, meanOverlap: 0.9, pairCount: 12 };
    const upload = vi.fn(async () => ({
      status: "ok" as const,
      data: { group: { id: "g1", name: "Bron", created_at: "", is_public: true, owner_id: "u", is_owner: true, pair_count: 12 }, report, pair_count: 12 },
    }));
    const { rerender } = render(<UploadForm deletedGroupIds={new Set()} />, upload);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("link", { name: "Study Bron" })).toBeTruthy();
    rerender(
      <StudyClientProvider client={{ uploadSubtitles: upload } as Partial<StudyClient> as StudyClient}>
        <MemoryRouter>
          <UploadForm deletedGroupIds={new Set(["g1"])} />
        </MemoryRouter>
      </StudyClientProvider>,
    );
    expect(screen.queryByRole("link", { name: "Study Bron" })).toBeNull();
    expect(screen.getByText("Bron has been deleted.")).toBeTruthy();
  });

  it("should name the group after the Swedish file (else the English one), until the learner types a name", () => {
    render(<UploadForm />);
    const name = screen.getByLabelText<HTMLInputElement>("Group name");
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "Bron.en.xml"));
    expect(name.value).toBe("Bron");
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "The.Bridge.S01E01.sv.xml"));
    expect(name.value).toBe("The Bridge S01E01");
    fireEvent.change(name, { target: { value: "Bron, avsnitt 1" } });
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "The.Bridge.S01E01.en.xml"));
    expect(name.value).toBe("Bron, avsnitt 1");
  });

  it("should lock the privacy checkbox when the plan's private decks are used up, and send the cards public", async () => {
    const upload = vi.fn(async () => ({ status: "error" as const, message: "x" }));
    render(<UploadForm allowance={{ plan: null, private_decks: 1, private_deck_limit: 1, may_add_private_deck: false, may_export_shared_decks: false }} />, upload);
    expect(screen.getByLabelText<HTMLInputElement>("Make these cards private").disabled).toBe(true);
    expect(screen.getByText(/Without a plan you can keep 1 private deck, and you have 1\. These cards will be public\./)).toBeTruthy();
    expect(screen.getByRole("link", { name: "See the plans" }).getAttribute("href")).toBe("/pricing");
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    await screen.findByRole("alert");
    expect(upload).toHaveBeenCalledWith(expect.objectContaining({ isPublic: true }), expect.any(Function));
  });

  it("should show the server's error text", async () => {
    const upload = vi.fn(async () => ({ status: "error" as const, message: "The English file is empty." }));
    render(<UploadForm />, upload);
    fireEvent.click(screen.getByLabelText("Make these cards private"));
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "The English file is empty.");
    expect(upload).toHaveBeenCalledWith(expect.objectContaining({ isPublic: false }), expect.any(Function));
  });
});
