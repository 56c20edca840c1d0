import type { Meta, StoryObj } from "@storybook/react-vite";
import { Spinner } from "@atelier/ui";

const meta = {
  title: "Components/Spinner",
  component: Spinner,
  args: { label: "Loading", size: "medium" },
  argTypes: { size: { control: "inline-radio", options: ["small", "medium", "large"] } },
} satisfies Meta<typeof Spinner>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Medium: Story = {};

export const Large: Story = { args: { size: "large", label: "Loading paintings" } };
