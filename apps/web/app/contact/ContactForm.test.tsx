import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { ContactForm } from "./ContactForm.tsx";
import { ContactClientProvider } from "./contact-client.ts";
import { SiteConfigClientProvider } from "../lib/site-config.ts";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// The form's behaviour is tested in @atelier/contact-form; here, only that the page's clients reach it.
describe("given the contact form of the web app", () => {
  it("should ask the site settings of its context, and say the spam check could not be loaded when they fail", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const loadSiteConfig = vi.fn(async () => Promise.reject(new Error("offline")));
    render(
      <SiteConfigClientProvider client={{ loadSiteConfig }}>
        <ContactClientProvider client={{ sendContactMessage: async () => ({ status: "sent", message: "" }) }}>
          <ContactForm />
        </ContactClientProvider>
      </SiteConfigClientProvider>,
    );
    expect((await screen.findByRole("alert")).textContent).toBe("The spam check could not be loaded. Please reload the page, or phone us.");
    expect(loadSiteConfig).toHaveBeenCalledTimes(1);
  });
});
