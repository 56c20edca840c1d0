import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
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
};
