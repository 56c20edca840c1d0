import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { Button, ConfirmDialog, Dialog, DialogContent, DialogTrigger } from "@atelier/ui";

const meta = {
  title: "Components/Dialog",
  component: Dialog,
} satisfies Meta<typeof Dialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const PaintingDetails: Story = {
  render: () => (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary">Show details</Button>
      </DialogTrigger>
      <DialogContent title="Evening on the lake" description="Oil on canvas, 60 × 45 cm, 2024">
        <p>Painted on the shore of Lake Geneva, in the last light of an October evening.</p>
      </DialogContent>
    </Dialog>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    const trigger = canvas.getByRole("button", { name: "Show details" });
    await userEvent.click(trigger);
    const dialog = await page.findByRole("dialog", { name: "Evening on the lake" });
    await waitFor(() => expect(dialog).toBeVisible());
    await expect(within(dialog).getByText("Oil on canvas, 60 × 45 cm, 2024")).toBeVisible();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(page.queryByRole("dialog")).toBeNull());
    // Radix returns focus to the control that opened the dialog.
    await expect(trigger).toHaveFocus();
  },
};

function ConfirmDeletionExample() {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button variant="secondary">Delete painting</Button>}
      title="Delete this painting?"
      description="It disappears from the gallery at once."
      confirmLabel="Delete"
      confirmPendingLabel="Deleting…"
      cancelLabel="Keep it"
      confirmPending={pending}
      onConfirm={() => {
        setPending(true);
        window.setTimeout(() => {
          setPending(false);
          setOpen(false);
        }, 1500);
      }}
    />
  );
}

export const ConfirmDeletion: Story = {
  render: () => <ConfirmDeletionExample />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    await userEvent.click(canvas.getByRole("button", { name: "Delete painting" }));
    const dialog = await page.findByRole("alertdialog", { name: "Delete this painting?" });
    await waitFor(() => expect(dialog).toBeVisible());
    await userEvent.click(within(dialog).getByRole("button", { name: "Keep it" }));
    await waitFor(() => expect(page.queryByRole("alertdialog")).toBeNull());
    await userEvent.click(canvas.getByRole("button", { name: "Delete painting" }));
    const again = await page.findByRole("alertdialog", { name: "Delete this painting?" });
    await userEvent.click(within(again).getByRole("button", { name: "Delete" }));
    // While the call runs the button says so and cannot be pressed twice.
    await expect(await within(again).findByRole("button", { name: "Deleting…" })).toBeDisabled();
  },
};
