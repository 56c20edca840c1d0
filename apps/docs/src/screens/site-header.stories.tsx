import type { Meta, StoryObj } from "@storybook/react-vite";
import { MemoryRouter } from "react-router";
import { expect, userEvent, within } from "storybook/test";
import { KnownAuthentication } from "../../../web/app/billing/billing-test-support.tsx";
import { SiteHeader } from "../../../web/app/components/SiteHeader.tsx";
import "../../../web/app/app.css";

type HeaderStoryArgs = { signedIn: boolean };

function HeaderOnAPage({ signedIn }: HeaderStoryArgs) {
  return (
    <MemoryRouter initialEntries={["/paintings"]}>
      <KnownAuthentication signedIn={signedIn}>
        <SiteHeader />
        <main className="site-main" style={{ padding: "1rem" }}>
          <p>The page below the header.</p>
        </main>
      </KnownAuthentication>
    </MemoryRouter>
  );
}

const meta = {
  title: "Screens/Site header",
  render: (args) => <HeaderOnAPage {...args} />,
  args: { signedIn: false },
  parameters: { layout: "fullscreen" },
} satisfies Meta<HeaderStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No page may scroll sideways: the header was once 504 px wide on a 390 px phone. */
async function expectNoSidewaysScroll(viewportWidth: number) {
  await expect(window.innerWidth).toBe(viewportWidth);
  await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(viewportWidth);
}

export const SignedOutDesktop: Story = {
  globals: { viewport: { value: "laptop1366" } },
  play: async ({ canvasElement }) => {
    const header = within(canvasElement);
    await expect(header.getByRole("link", { name: "Paintings" })).toBeVisible();
    await expect(header.getByRole("button", { name: "Log in" })).toBeVisible();
    await expectNoSidewaysScroll(1366);
  },
};

export const SignedInDesktop: Story = {
  args: { signedIn: true },
  globals: { viewport: { value: "laptop1366" } },
  play: async ({ canvasElement }) => {
    const header = within(canvasElement);
    await userEvent.click(header.getByRole("button", { name: "Ada" }));
    await expect(header.getByRole("link", { name: "Settings" })).toBeVisible();
    await expectNoSidewaysScroll(1366);
  },
};

export const SignedOutPhone: Story = {
  globals: { viewport: { value: "phone390" } },
  play: async ({ canvasElement }) => {
    const header = within(canvasElement);
    await userEvent.click(header.getByRole("button", { name: /menu/i }));
    await expect(header.getByRole("link", { name: "Contact" })).toBeVisible();
    await expectNoSidewaysScroll(390);
  },
};

export const SignedInPhone: Story = {
  args: { signedIn: true },
  globals: { viewport: { value: "phone390" } },
  play: async ({ canvasElement }) => {
    const header = within(canvasElement);
    await userEvent.click(header.getByRole("button", { name: /menu/i }));
    await expect(header.getByText(/Signed in as/)).toBeVisible();
    await expectNoSidewaysScroll(390);
  },
};

export const SignedInPhoneDark: Story = { ...SignedInPhone, globals: { viewport: { value: "phone390" }, theme: "dark" } };
