import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, within } from "storybook/test";
import { PlanCard } from "../../../web/app/billing/PlanCard.tsx";
import type { PricingProduct } from "@atelier/site-api";
import type { PlanCardState } from "../../../web/app/billing/plan-card-state.ts";
import "../../../web/app/app.css";

const plus: PricingProduct = {
  name: "Plus",
  description: "For regular learners: many private decks, and every shared deck to take to Anki.",
  features: ["Up to 50 private flashcard decks", "Export your own decks as CSV or Anki files", "Export any shared deck as CSV or Anki files"],
  is_default: true,
  stripe_id: "price_dev_plus_month",
  price: { amount: 9, amount_in_cents: 900, interval: "month", product_id: "plus" },
};

const meta = {
  title: "Screens/Pricing/Plan card",
  component: PlanCard,
  args: { product: plus, state: { kind: "choose" }, onChoose: fn() },
} satisfies Meta<typeof PlanCard>;

export default meta;
type Story = StoryObj<typeof meta>;

const oneCardWide = [
  (Story: () => React.JSX.Element) => (
    <div style={{ maxWidth: "22rem", padding: "1rem" }}>
      <Story />
    </div>
  ),
];

export const ChoosePlan: Story = {
  decorators: oneCardWide,
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole("button", { name: "Choose plan" }));
    await expect(args.onChoose).toHaveBeenCalledWith(plus, { kind: "choose" });
  },
};
export const CurrentPlan: Story = {
  args: { state: { kind: "current", daysLeft: 12 } },
  decorators: oneCardWide,
  play: async ({ canvasElement }) => {
    const card = within(canvasElement);
    await expect(card.getByText("Current plan")).toBeVisible();
    await expect(card.getByText("12 days left")).toBeVisible();
    await expect(card.queryByRole("button")).toBeNull();
  },
};
export const UpgradePlan: Story = { args: { state: { kind: "upgrade" } }, decorators: oneCardWide };
export const DowngradePlan: Story = { args: { state: { kind: "downgrade" } }, decorators: oneCardWide };

const allStates: [string, PlanCardState][] = [
  ["Choose plan", { kind: "choose" }],
  ["Current plan", { kind: "current", daysLeft: 1 }],
  ["Upgrade Plan", { kind: "upgrade" }],
  ["Downgrade Plan", { kind: "downgrade" }],
];

function AllStates() {
  return (
    <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(16rem, 1fr))", gap: "1rem", padding: "1rem" }}>
      {allStates.map(([label, state]) => (
        <PlanCard key={label} product={{ ...plus, stripe_id: `${plus.stripe_id}-${state.kind}` }} state={state} onChoose={() => undefined} />
      ))}
    </div>
  );
}

/** Every state side by side, as Radix shows its dialog's states: the place to review spacing and colour at once. */
export const AllStatesLight: Story = { render: () => <AllStates /> };
export const AllStatesDark: Story = { render: () => <AllStates />, globals: { theme: "dark" } };
