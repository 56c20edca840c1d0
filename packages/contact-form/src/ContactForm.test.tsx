import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { CONTACT_TOO_LARGE_MESSAGE, createContactClient, createSiteHttp, type SiteConfigClient } from "@atelier/site-api";
import { ContactForm } from "./ContactForm.tsx";
import type { CaptchaProps } from "./AltchaCaptcha.tsx";

const altchaSettings: SiteConfigClient = { loadSiteConfig: async () => ({ captcha: { provider: "altcha", challengeUrl: "/captcha/challenge" }, analytics: null }) };

// The widget solves its puzzle at once: this test is about what the page shows after sending.
vi.mock("./AltchaCaptcha.tsx", () => ({
  AltchaCaptcha: ({ onTokenChange }: CaptchaProps) => {
    useEffect(() => onTokenChange("solved-captcha"), [onTokenChange]);
    return <p>captcha solved</p>;
  },
}));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The form with a contact client whose server answers every message with `answer`. */
function renderForm(answer: () => Response, siteConfigClient = altchaSettings) {
  render(<ContactForm contactClient={createContactClient(createSiteHttp({ fetch: async () => answer() }))} siteConfigClient={siteConfigClient} />);
}

async function sendTheForm(answer: () => Response) {
  renderForm(answer);
  await screen.findByText("captcha solved");
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Anna" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "anna@example.ch" } });
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: "A very long message" } });
  fireEvent.submit(screen.getByRole("button", { name: "Send" }).closest("form") as HTMLFormElement);
}

describe("given the contact form", () => {
  it("should thank the visitor and clear the form once the message is sent", async () => {
    await sendTheForm(() => Response.json({ message: "Thank you! Your message has been sent." }));
    expect(await screen.findByText("Thank you! Your message has been sent.")).toBeTruthy();
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("");
  });

  it("should say the spam check could not be loaded when the site settings fail", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderForm(() => Response.json({}), { loadSiteConfig: async () => Promise.reject(new Error("offline")) });
    expect((await screen.findByRole("alert")).textContent).toBe("The spam check could not be loaded. Please reload the page, or phone us.");
  });

  it("should show the server's 413 message when the message is too large to send", async () => {
    const tooLarge = "Your message is too large to send (the limit is 64 KB). Please shorten it and try again.";
    await sendTheForm(() => new Response(JSON.stringify({ message: tooLarge }), { status: 413, headers: { "content-type": "application/json" } }));
    expect(await screen.findByText(tooLarge)).toBeTruthy();
  });

  it("should say the message is too large when a proxy refuses it with a page of its own", async () => {
    await sendTheForm(() => new Response("<html>413 Request Entity Too Large</html>", { status: 413, headers: { "content-type": "text/html" } }));
    expect(await screen.findByText(CONTACT_TOO_LARGE_MESSAGE)).toBeTruthy();
  });
});
