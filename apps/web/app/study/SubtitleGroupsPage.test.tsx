import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import type { StudyClient } from "@atelier/site-api";
import { renderStudyScreens, studyScreen } from "./study-screen-test-support.tsx";

vi.mock("@atelier/auth/react", async (importOriginal) => ({ ...(await importOriginal<object>()), useAuthStatus: () => ({ loadState: "ready", isAuthenticated: true }) }));

const { SubtitleGroupsPage, describePairCount, loadSubtitleGroups } = await import("./SubtitleGroupsPage.tsx");

const groupsScreen = studyScreen("/upload-subtitles", loadSubtitleGroups, SubtitleGroupsPage);

function group(name: string, pairCount: number) {
  return { id: name, name, created_at: "2025-01-01T00:00:00Z", is_public: true, owner_id: "u1", is_owner: true, pair_count: pairCount };
}

describe("given a count of sentence pairs", () => {
  it("should say '1 pair' for one and 'n pairs' for any other number", () => {
    expect(describePairCount(1)).toBe("1 pair");
    expect(describePairCount(0)).toBe("0 pairs");
    expect(describePairCount(1559)).toBe("1,559 pairs");
  });
});

describe("given the saved groups of a signed-in user", () => {
  afterEach(cleanup);

  it("should write '1 pair' in the list and in the delete confirmation of a group with one pair", async () => {
    const client = { loadGroups: vi.fn().mockResolvedValue({ status: "ok", data: { groups: [group("Short film", 1), group("Long film", 559)] } }) };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    expect(await screen.findByText("1 pair")).toBeTruthy();
    expect(screen.getByText("559 pairs")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Delete Short film" }));
    expect(await screen.findByText("Short film and its 1 pair will be deleted.")).toBeTruthy();
  });
});

describe("given a group its owner deleted meanwhile in another tab", () => {
  afterEach(cleanup);

  it("should take it off the list when the server answers 404, without an error", async () => {
    const client = {
      loadGroups: vi
        .fn()
        .mockResolvedValueOnce({ status: "ok", data: { groups: [group("Short film", 1), group("Long film", 559)] } })
        .mockResolvedValue({ status: "ok", data: { groups: [group("Long film", 559)] } }),
      deleteGroup: vi.fn().mockResolvedValue({ status: "error", message: "This subtitle group does not exist.", httpStatus: 404 }),
    };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    fireEvent.click(await screen.findByRole("button", { name: "Delete Short film" }));
    fireEvent.click(await screen.findByRole("button", { name: "Delete" }));
    // The open dialog hides the page from queries by role: look once it has closed.
    await vi.waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(screen.queryByRole("heading", { name: "Short film" })).toBeNull();
    expect(client.deleteGroup).toHaveBeenCalledWith("Short film");
    expect(screen.queryByText("This subtitle group does not exist.")).toBeNull();
    expect(await screen.findByRole("heading", { name: "Long film" })).toBeTruthy();
  });

  it("should keep it and show the server's message when the deletion fails otherwise", async () => {
    const client = {
      loadGroups: vi.fn().mockResolvedValue({ status: "ok", data: { groups: [group("Short film", 1)] } }),
      deleteGroup: vi.fn().mockResolvedValue({ status: "error", message: "Failed to delete group", httpStatus: 500 }),
    };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    fireEvent.click(await screen.findByRole("button", { name: "Delete Short film" }));
    fireEvent.click(await screen.findByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Failed to delete group")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Short film" })).toBeTruthy();
  });
});

describe("given a signed-in user who renames a group", () => {
  afterEach(cleanup);

  it("should show the new name at once and load the list again from the route's loader", async () => {
    let answerReload = (_groups: ReturnType<typeof group>[]) => {};
    const reloaded = new Promise<ReturnType<typeof group>[]>((resolve) => (answerReload = resolve));
    const client = {
      loadGroups: vi
        .fn()
        .mockResolvedValueOnce({ status: "ok", data: { groups: [group("Bron", 12)] } })
        .mockImplementation(async () => ({ status: "ok", data: { groups: await reloaded } })),
      renameGroup: vi.fn().mockResolvedValue({ status: "ok", data: { group: { ...group("Bron", 12), name: "The Bridge" } } }),
    };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    fireEvent.click(await screen.findByRole("button", { name: "Rename Bron" }));
    const form = screen.getByLabelText("New name for Bron").closest("form") as HTMLFormElement;
    fireEvent.change(within(form).getByLabelText("New name for Bron"), { target: { value: "The Bridge" } });
    fireEvent.submit(form);
    // Before the list comes again.
    expect(await screen.findByRole("heading", { name: "The Bridge" })).toBeTruthy();
    expect(client.renameGroup).toHaveBeenCalledWith("Bron", "The Bridge");
    await vi.waitFor(() => expect(client.loadGroups).toHaveBeenCalledTimes(2));
    answerReload([{ ...group("Bron", 12), name: "The Bridge", is_public: false }]);
    expect(await screen.findByText("Private")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "The Bridge" })).toBeTruthy();
  });
});

describe("given a signed-in user who opened the rename form of a group and typed a new name", () => {
  afterEach(cleanup);

  it("should close the form on Escape, keep the old name, rename nothing and focus the group's Rename button", async () => {
    const client = {
      loadGroups: vi.fn().mockResolvedValue({ status: "ok", data: { groups: [group("Bron", 12), group("Forbrydelsen", 20)] } }),
      renameGroup: vi.fn(),
    };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    fireEvent.click(await screen.findByRole("button", { name: "Rename Bron" }));
    const nameField = screen.getByLabelText("New name for Bron");
    fireEvent.change(nameField, { target: { value: "Half typed" } });
    fireEvent.keyDown(nameField, { key: "Escape" });
    expect(screen.queryByLabelText("New name for Bron")).toBeNull();
    expect(screen.getByRole("heading", { name: "Bron" })).toBeTruthy();
    expect(client.renameGroup).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Rename Bron" }));
  });
});

describe("given a user who asked for the upload form before signing in and is back signed in", () => {
  afterEach(cleanup);

  it("should open the form at once and forget the request", async () => {
    window.sessionStorage.setItem("upload-subtitles:open-form", "1");
    const client = { loadGroups: vi.fn().mockResolvedValue({ status: "ok", data: { groups: [] } }) };
    renderStudyScreens(client as Partial<StudyClient> as StudyClient, [groupsScreen], "/upload-subtitles");
    expect(await screen.findByLabelText("Swedish subtitles (XML)")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Upload subtitles" })).toBeNull();
    await vi.waitFor(() => expect(window.sessionStorage.getItem("upload-subtitles:open-form")).toBeNull());
  });
});
