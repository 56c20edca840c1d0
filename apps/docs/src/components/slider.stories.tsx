import type { Meta, StoryObj } from "@storybook/react-vite";
import { Slider } from "@atelier/ui";

const meta = {
  title: "Components/Slider",
  component: Slider,
  args: { label: "Maximum width", min: 20, max: 200, step: 10, defaultValue: 100, formatValue: (value: number) => `${value} cm` },
  decorators: [(Story) => <div style={{ maxWidth: "20rem" }}>{Story()}</div>],
} satisfies Meta<typeof Slider>;

export default meta;
type Story = StoryObj<typeof meta>;

export const MaximumWidth: Story = {};

export const Disabled: Story = { args: { disabled: true } };
