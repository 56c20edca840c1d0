import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Button } from "../button/button";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { Dialog, DialogContent, DialogTrigger } from "./dialog";

function PaintingDetailsDialog() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button>Show details</Button>
      </DialogTrigger>
      <DialogContent title="Evening on the lake" description="Oil on canvas, 2024" closeLabel="Close details">
        <p>Painted on the shore of Lake Geneva.</p>
      </DialogContent>
    </Dialog>
  );
}

describe("given a closed Dialog", () => {
  it("should not render its content", () => {
    render(<PaintingDetailsDialog />);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("button", { name: "Show details" }).getAttribute("aria-expanded")).toBe("false");
  });
});

describe("given a Dialog opened from its trigger", () => {
  function openDialog() {
    render(<PaintingDetailsDialog />);
    const trigger = screen.getByRole("button", { name: "Show details" });
    trigger.focus();
    fireEvent.click(trigger);
    return { trigger, dialog: screen.getByRole("dialog", { name: "Evening on the lake" }) };
  }

  it("should show the title, description and open data-state", () => {
    const { dialog } = openDialog();
    expect(dialog.getAttribute("data-state")).toBe("open");
    expect(dialog.className).toBe("atelier-dialog");
    const descriptionId = dialog.getAttribute("aria-describedby");
    expect(descriptionId && document.getElementById(descriptionId)?.textContent).toBe("Oil on canvas, 2024");
  });

  it("should move focus into the dialog", async () => {
    const { dialog } = openDialog();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it("should close on Escape and return focus to the trigger", async () => {
    const { trigger, dialog } = openDialog();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement ?? dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it("should close from the labelled close button", async () => {
    openDialog();
    fireEvent.click(screen.getByRole("button", { name: "Close details" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("should have no axe violations", async () => {
    const { dialog } = openDialog();
    await expectNoAxeViolations(dialog);
  });
});

describe("given a Dialog without description", () => {
  it("should not point aria-describedby at anything", () => {
    render(
      <Dialog defaultOpen>
        <DialogContent title="Enlarged painting">
          <p>Image</p>
        </DialogContent>
      </Dialog>,
    );
    expect(screen.getByRole("dialog", { name: "Enlarged painting" }).hasAttribute("aria-describedby")).toBe(false);
  });
});
