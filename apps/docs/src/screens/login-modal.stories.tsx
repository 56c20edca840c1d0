import type { Meta, StoryObj } from "@storybook/react-vite";
import { MemoryRouter } from "react-router";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { LoginModal } from "../../../web/app/login-modal/LoginModal.tsx";
import { useLoginModalStore, type LoginModalEmailMode, type LoginModalStep } from "../../../web/app/login-modal/login-modal-store.ts";
import { KnownConfiguration, localProvider } from "../../../web/app/providers/provider-test-support.tsx";
import "../../../web/app/app.css";

type LoginModalStoryArgs = { step: LoginModalStep; emailMode: LoginModalEmailMode; studyPrompt: boolean };

function OpenLoginModal({ step, emailMode, studyPrompt }: LoginModalStoryArgs) {
  // Opened through the state, not `open()`, which would load the real server's settings.
  useLoginModalStore.setState({
    state: "open",
    step,
    emailMode,
    options: studyPrompt ? { title: "Keep Up the Great Work!", description: "Log in to save your progress and keep studying." } : {},
  });
  return (
    <MemoryRouter>
      <KnownConfiguration providers={[localProvider]}>
        <LoginModal />
      </KnownConfiguration>
    </MemoryRouter>
  );
}

const meta = {
  title: "Screens/Login modal",
  render: (args) => <OpenLoginModal {...args} />,
  args: { step: "initial", emailMode: "login", studyPrompt: false },
  parameters: { layout: "fullscreen" },
} satisfies Meta<LoginModalStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

async function openDialog(canvasElement: HTMLElement) {
  const dialog = await within(canvasElement.ownerDocument.body).findByRole("dialog");
  // The dialog fades in; axe and the assertions read its final colours.
  await waitFor(() => expect(dialog).toBeVisible());
  return within(dialog);
}

export const Initial: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await expect(dialog.getByRole("button", { name: "Continue with Test ID (local)" })).toBeVisible();
    await userEvent.click(dialog.getByRole("button", { name: "Continue with email" }));
    await expect(await dialog.findByRole("textbox", { name: "Email" })).toBeVisible();
  },
};
export const StudyPrompt: Story = {
  args: { studyPrompt: true },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await expect(dialog.getByText("Keep Up the Great Work!")).toBeVisible();
  },
};
export const EmailLogin: Story = { args: { step: "email" }, play: async ({ canvasElement }) => void (await openDialog(canvasElement)) };
export const EmailSignup: Story = {
  args: { step: "email", emailMode: "signup" },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.type(dialog.getByLabelText("Password", { exact: true }), "correct horse battery");
    await userEvent.type(dialog.getByLabelText("Confirm password"), "correct horse batter");
    // The form's submit button, not the "Sign up" mode switch above the fields.
    const submit = dialog.getAllByRole("button", { name: "Sign up" }).find((button) => button.getAttribute("type") === "submit");
    await userEvent.click(submit as HTMLElement);
    await expect(await dialog.findByText("Passwords do not match.")).toBeVisible();
  },
};
export const PasswordReset: Story = { args: { step: "passwordReset" }, play: async ({ canvasElement }) => void (await openDialog(canvasElement)) };
export const LoginCode: Story = { args: { step: "loginCode" }, play: async ({ canvasElement }) => void (await openDialog(canvasElement)) };
export const ConfirmLoginCode: Story = { args: { step: "confirmLoginCode" }, play: async ({ canvasElement }) => void (await openDialog(canvasElement)) };
export const InitialPhoneDark: Story = { ...StudyPrompt, globals: { viewport: { value: "phone390" }, theme: "dark" } };
