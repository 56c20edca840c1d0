import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { applyThemeToDocument, type ThemeName, ThemeToggle } from "@atelier/ui";

const meta = {
  title: "Components/ThemeToggle",
  component: ThemeToggle,
  args: { theme: "light", onThemeChange: () => {} },
} satisfies Meta<typeof ThemeToggle>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = {};

export const Dark: Story = { args: { theme: "dark" } };

function WorkingThemeToggle() {
  const [theme, setTheme] = useState<ThemeName>("light");
  return (
    <ThemeToggle
      theme={theme}
      onThemeChange={(nextTheme) => {
        setTheme(nextTheme);
        applyThemeToDocument(document.documentElement, nextTheme);
      }}
    />
  );
}

export const AppliesToThePage: Story = { render: () => <WorkingThemeToggle /> };
