import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { expectNoAxeViolations } from "../test-support/expect-no-axe-violations";
import { ConfirmDialog } from "./confirm-dialog";

describe("given an open ConfirmDialog that is not pending", () => {
  it("should be an alertdialog with an enabled confirm button that calls onConfirm", () => {
    const handleConfirm = vi.fn();
    render(
      <ConfirmDialog defaultOpen title="Delete this painting?" confirmLabel="Delete" cancelLabel="Keep it" onConfirm={handleConfirm} />,
    );
    expect(screen.getByRole("alertdialog", { name: "Delete this painting?" })).toBeTruthy();
    const confirmButton = screen.getByRole<HTMLButtonElement>("button", { name: "Delete" });
    expect(confirmButton.disabled).toBe(false);
    fireEvent.click(confirmButton);
    expect(handleConfirm).toHaveBeenCalledTimes(1);
  });

  it("should close and not confirm when Cancel is pressed", async () => {
    const handleConfirm = vi.fn();
    const handleOpenChange = vi.fn();
    render(
      <ConfirmDialog
        defaultOpen
        title="Delete this painting?"
        confirmLabel="Delete"
        cancelLabel="Keep it"
        onConfirm={handleConfirm}
        onOpenChange={handleOpenChange}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Keep it" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(handleOpenChange).toHaveBeenCalledWith(false);
    expect(handleConfirm).not.toHaveBeenCalled();
  });

  it("should have no axe violations", async () => {
    render(
      <ConfirmDialog
        defaultOpen
        title="Delete this painting?"
        description="It disappears from the gallery at once."
        confirmLabel="Delete"
        cancelLabel="Keep it"
        onConfirm={() => {}}
      />,
    );
    await expectNoAxeViolations(screen.getByRole("alertdialog"));
  });
});

describe("given a ConfirmDialog whose confirm call is pending", () => {
  it("should disable the confirm button, show the pending label and ignore clicks", () => {
    const handleConfirm = vi.fn();
    render(
      <ConfirmDialog
        defaultOpen
        title="Delete this painting?"
        confirmLabel="Delete"
        confirmPendingLabel="Deleting…"
        onConfirm={handleConfirm}
        confirmPending
      />,
    );
    const confirmButton = screen.getByRole<HTMLButtonElement>("button", { name: "Deleting…" });
    expect(confirmButton.disabled).toBe(true);
    expect(confirmButton.getAttribute("aria-busy")).toBe("true");
    expect(confirmButton.getAttribute("data-state")).toBe("pending");
    fireEvent.click(confirmButton);
    expect(handleConfirm).not.toHaveBeenCalled();
  });
});

describe("given a controlled ConfirmDialog driving an async call", () => {
  function DeletePaintingFlow({ deletePainting }: { deletePainting: () => Promise<void> }) {
    const [open, setOpen] = useState(true);
    const [pending, setPending] = useState(false);
    return (
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete this painting?"
        confirmLabel="Delete"
        onConfirm={async () => {
          setPending(true);
          await deletePainting();
          setPending(false);
          setOpen(false);
        }}
        confirmPending={pending}
      />
    );
  }

  it("should disable confirm while the call runs and close when it resolves", async () => {
    let finishDeletion: () => void = () => {};
    const deletePainting = vi.fn(() => new Promise<void>((resolve) => (finishDeletion = resolve)));
    render(<DeletePaintingFlow deletePainting={deletePainting} />);
    const confirmButton = screen.getByRole<HTMLButtonElement>("button", { name: "Delete" });
    fireEvent.click(confirmButton);
    await waitFor(() => expect(confirmButton.disabled).toBe(true));
    fireEvent.click(confirmButton);
    expect(deletePainting).toHaveBeenCalledTimes(1);
    finishDeletion();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });
});
