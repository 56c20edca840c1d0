import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { StudyClient, SubtitleGroup } from "@atelier/site-api";
import { ACCOUNT_EXPORT_PATH, DataExportLoading, DataExportPage, loadDataExport } from "./DataExportPage.tsx";

afterEach(cleanup);

const group = (id: string, isOwner: boolean): SubtitleGroup => ({ id, name: `Deck ${id}`, created_at: "2026-11-20T10:00:00.000Z", is_public: !isOwner, owner_id: isOwner ? "u1" : "u2", is_owner: isOwner, pair_count: 12 });
const answering = (answer: Awaited<ReturnType<StudyClient["loadGroups"]>>): Pick<StudyClient, "loadGroups"> => ({ loadGroups: async () => answer });

describe("given the data export loader", () => {
  it("should keep only the user's own decks", async () => {
    expect(await loadDataExport(answering({ status: "ok", data: { groups: [group("mine", true), group("shared", false)] } }))).toEqual({ status: "ready", ownGroups: [group("mine", true)] });
  });

  it("should list no decks for a visitor who is not signed in, and an error for any other failure", async () => {
    expect(await loadDataExport(answering({ status: "error", message: "Failed to load saved groups", httpStatus: 401 }))).toEqual({ status: "ready", ownGroups: [] });
    expect(await loadDataExport(answering({ status: "error", message: "Failed to load saved groups", httpStatus: 502 }))).toEqual({ status: "error" });
  });
});

describe("given the data export page", () => {
  it("should offer the account's file and each own deck as CSV and for Anki", () => {
    render(<DataExportPage data={{ status: "ready", ownGroups: [group("mine", true)] }} />);
    expect(screen.getByRole("link", { name: "Download my data" }).getAttribute("href")).toBe(ACCOUNT_EXPORT_PATH);
    expect(screen.getByRole("link", { name: "Deck mine as CSV" }).getAttribute("href")).toMatch(/mine/);
    expect(screen.getByRole("link", { name: "Deck mine for Anki" }).getAttribute("href")).toMatch(/mine/);
  });

  it("should say when there is no deck, when the decks could not be listed, and while they load", () => {
    render(<DataExportPage data={{ status: "ready", ownGroups: [] }} />);
    expect(screen.getByText("You have not uploaded any subtitles yet.")).toBeTruthy();
    cleanup();
    render(<DataExportPage data={{ status: "error" }} />);
    expect(screen.getByRole("alert").textContent).toBe("Your decks could not be listed. Please reload the page.");
    cleanup();
    render(<DataExportLoading />);
    expect(screen.getByRole("link", { name: "Download my data" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("Loading your decks");
  });
});
