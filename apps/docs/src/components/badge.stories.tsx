import type { Meta, StoryObj } from "@storybook/react-vite";
import { Badge } from "@atelier/ui";

const meta = {
  title: "Components/Badge",
  component: Badge,
  args: { children: "Sold", tone: "danger" },
  argTypes: { tone: { control: "inline-radio", options: ["neutral", "success", "danger"] } },
} satisfies Meta<typeof Badge>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Sold: Story = {};

export const Neutral: Story = { args: { tone: "neutral", children: "Oil on canvas" } };

export const Success: Story = { args: { tone: "success", children: "Available" } };
