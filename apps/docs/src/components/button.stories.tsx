import type { Meta, StoryObj } from "@storybook/react-vite";
import { Button, ButtonLink } from "@atelier/ui";

const meta = {
  title: "Components/Button",
  component: Button,
  args: { children: "Save", variant: "primary", size: "medium", disabled: false },
  argTypes: {
    variant: { control: "inline-radio", options: ["primary", "secondary", "ghost"] },
    size: { control: "inline-radio", options: ["small", "medium", "large"] },
  },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = {};

export const Secondary: Story = { args: { variant: "secondary" } };

export const Ghost: Story = { args: { variant: "ghost" } };

export const Disabled: Story = { args: { disabled: true } };

export const AllSizes: Story = {
  render: (args) => (
    <div style={{ display: "flex", gap: "1rem", alignItems: "center" }}>
      <Button {...args} size="small">Small</Button>
      <Button {...args} size="medium">Medium</Button>
      <Button {...args} size="large">Large</Button>
    </div>
  ),
};

export const PurchaseLink: Story = {
  render: () => (
    <ButtonLink href="https://shop.example/painting-12" target="_blank" size="large">
      I want this!
    </ButtonLink>
  ),
};
