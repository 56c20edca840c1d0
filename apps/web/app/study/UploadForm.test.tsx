import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { UploadForm } from "./UploadForm.tsx";

afterEach(cleanup);

function chooseFile(label: string, file: File) {
  const input = screen.getByLabelText(label);
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  fireEvent.change(input);
}

describe("given the upload form", () => {
  it("should ask for both files without calling the server", async () => {
    const upload = vi.fn();
    render(<UploadForm upload={upload} />);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Please upload both files");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should accept XML files only", async () => {
    const upload = vi.fn();
    render(<UploadForm upload={upload} />);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["1\n00:00"], "en.srt"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Please upload XML files only");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should say which file is too large before sending anything", async () => {
    const upload = vi.fn();
    render(<UploadForm upload={upload} />);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    const large = new File(["<xml/>"], "en.xml");
    Object.defineProperty(large, "size", { value: 6 * 1024 * 1024 });
    chooseFile("English subtitles (XML)", large);
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "The English file is too large (6.0 MB): each subtitle file must be smaller than 5 MB.");
    expect(upload).not.toHaveBeenCalled();
  });

  it("should send public files by default and show the alignment report", async () => {
    const report = { offsetMilliseconds: 120, frameRateRatio: 1, englishCoverage: 0.9, swedishCoverage: 0.85, meanOverlap: 0.7, pairCount: 42, warning: "Check the files" };
    const upload = vi.fn(async () => ({
      status: "ok" as const,
      data: { group: { id: "g1", name: "Bron", created_at: "", is_public: true, owner_id: "u", is_owner: true, pair_count: 42 }, report, pair_count: 42 },
    }));
    render(<UploadForm upload={upload} />);
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.XML"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByText("Upload complete: 42 pairs")).toBeTruthy();
    expect(screen.getByText("Check the files")).toBeTruthy();
    expect(upload).toHaveBeenCalledWith(expect.objectContaining({ isPublic: true }), expect.any(Function));
  });

  it("should show the server's error text", async () => {
    const upload = vi.fn(async () => ({ status: "error" as const, message: "The English file is empty." }));
    render(<UploadForm upload={upload} />);
    fireEvent.click(screen.getByLabelText("Make these cards private"));
    chooseFile("Swedish subtitles (XML)", new File(["<xml/>"], "sv.xml"));
    chooseFile("English subtitles (XML)", new File(["<xml/>"], "en.xml"));
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "The English file is empty.");
    expect(upload).toHaveBeenCalledWith(expect.objectContaining({ isPublic: false }), expect.any(Function));
  });
});
