import type { Meta, StoryObj } from "@storybook/react-vite";
import { Button, ToastProvider, ToastViewport, useToast } from "@atelier/ui";

function ToastButtons() {
  const { showToast } = useToast();
  return (
    <div style={{ display: "flex", gap: "0.5rem" }}>
      <Button onClick={() => showToast({ message: "Painting saved", tone: "success" })}>Default (300 ms)</Button>
      <Button variant="secondary" onClick={() => showToast({ message: "Added to your wishlist", durationMilliseconds: 4000 })}>
        Four seconds
      </Button>
      <Button variant="ghost" onClick={() => showToast({ message: "Could not reach the shop", tone: "danger", durationMilliseconds: Number.POSITIVE_INFINITY })}>
        Until dismissed
      </Button>
    </div>
  );
}

const meta = {
  title: "Components/Toast",
  component: ToastViewport,
  decorators: [
    (Story) => (
      <ToastProvider>
        <ToastButtons />
        {Story()}
      </ToastProvider>
    ),
  ],
} satisfies Meta<typeof ToastViewport>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Queue: Story = {};
