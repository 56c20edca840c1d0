import { afterEach, describe, expect, it } from "vitest";
import { currentFocusOpener, focusFirstVisible } from "./focus-return.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

describe("given a dialog's opener", () => {
  it("should remember the focused control, and not the body", () => {
    document.body.innerHTML = `<button id="opener">Log in</button>`;
    expect(currentFocusOpener()).toBeNull();
    document.getElementById("opener")?.focus();
    expect(currentFocusOpener()?.id).toBe("opener");
  });

  it("should skip a control that left the page and focus the next candidate", () => {
    document.body.innerHTML = `<button id="fallback">Menu</button>`;
    const removed = document.createElement("button");
    const fallback = document.getElementById("fallback");
    fallback!.getClientRects = () => [{}] as unknown as DOMRectList;
    expect(focusFirstVisible(removed, null, fallback)).toBe(true);
    expect(document.activeElement).toBe(fallback);
  });
});
