import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { ContactForm } from "./ContactForm.tsx";
import type { CaptchaProps } from "./AltchaCaptcha.tsx";
import { CONTACT_TOO_LARGE_MESSAGE } from "@atelier/site-api";

vi.mock("../lib/site-config.ts", () => ({
  loadSiteConfig: async () => ({ captcha: { provider: "altcha", challengeUrl: "/captcha/challenge" }, analytics: null }),
}));

// The widget solves its puzzle at once: this test is about what the page shows after sending.
vi.mock("./AltchaCaptcha.tsx", () => ({
  AltchaCaptcha: ({ onTokenChange }: CaptchaProps) => {
    useEffect(() => onTokenChange("solved-captcha"), [onTokenChange]);
    return <p>captcha solved</p>;
  },
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function sendTheForm() {
  render(<ContactForm />);
  await screen.findByText("captcha solved");
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Anna" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "anna@example.ch" } });
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: "A very long message" } });
  fireEvent.submit(screen.getByRole("button", { name: "Send" }).closest("form") as HTMLFormElement);
}

describe("given the contact form", () => {
  it("should show the server's 413 message when the message is too large to send", async () => {
    const tooLarge = "Your message is too large to send (the limit is 64 KB). Please shorten it and try again.";
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ message: tooLarge }), { status: 413, headers: { "content-type": "application/json", connection: "close" } }));
    await sendTheForm();
    expect(await screen.findByText(tooLarge)).toBeTruthy();
  });

  it("should say the message is too large when a proxy refuses it with a page of its own", async () => {
    vi.stubGlobal("fetch", async () => new Response("<html>413 Request Entity Too Large</html>", { status: 413, headers: { "content-type": "text/html" } }));
    await sendTheForm();
    expect(await screen.findByText(CONTACT_TOO_LARGE_MESSAGE)).toBeTruthy();
  });
});
