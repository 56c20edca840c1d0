import type { Meta, StoryObj } from "@storybook/react-vite";
import { MemoryRouter } from "react-router";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { SignOutDialog } from "../../../web/app/components/SignOutDialog.tsx";
import { useSignOutDialogStore } from "../../../web/app/components/sign-out-dialog-store.ts";
import { KnownConfiguration } from "../../../web/app/providers/provider-test-support.tsx";
import "../../../web/app/app.css";

function OpenSignOutDialog() {
  useSignOutDialogStore.setState({ state: "open" });
  return (
    <MemoryRouter>
      {/* The dialog signs out with the auth client of its provider (a fake one here). */}
      <KnownConfiguration providers={[]} signedIn>
        <SignOutDialog />
      </KnownConfiguration>
    </MemoryRouter>
  );
}

const meta = {
  title: "Screens/Sign-out dialog",
  render: () => <OpenSignOutDialog />,
  parameters: { layout: "fullscreen" },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

/** Spec 4.5: a confirmation before signing out; Cancel (or Escape) keeps the visitor signed in. */
export const Open: Story = {
  play: async ({ canvasElement }) => {
    const page = within(canvasElement.ownerDocument.body);
    const dialog = await page.findByRole("alertdialog", { name: "Sign out?" });
    await waitFor(() => expect(dialog).toBeVisible());
    await expect(within(dialog).getByText("You will need to sign in again to reach your account.")).toBeVisible();
    await expect(within(dialog).getByRole("button", { name: "Sign out" })).toBeEnabled();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(page.queryByRole("alertdialog")).toBeNull());
    await expect(useSignOutDialogStore.getState().state).toBe("closed");
  },
};

export const OnAPhoneDark: Story = {
  globals: { viewport: { value: "phone390" }, theme: "dark" },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole("alertdialog", { name: "Sign out?" });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};
