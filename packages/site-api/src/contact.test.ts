import { describe, expect, it } from "vitest";
import { CONTACT_FALLBACK_ERROR_MESSAGE, CONTACT_NETWORK_ERROR_MESSAGE, CONTACT_TOO_LARGE_MESSAGE, createContactClient, type ContactMessageInput } from "./contact.ts";
import { siteHttpOver } from "./test-support/recording-fetch.ts";

const input: ContactMessageInput = { name: "Ada", email: "ada@example.com", message: "Hello", recaptchaToken: "token", website: "" };

function answering(status: number, body: unknown, contentType = "application/json"): typeof fetch {
  return async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": contentType } });
}

describe("sendContactMessage", () => {
  it("should post the form as JSON to the contact path, echoing the CSRF cookie", async () => {
    let seen: Request | undefined;
    let seenBody: unknown;
    const fetchImplementation: typeof fetch = async (request) => {
      seen = request as Request;
      seenBody = await seen.json();
      return new Response(JSON.stringify({ message: "Thanks" }), { status: 201, headers: { "content-type": "application/json" } });
    };
    const result = await createContactClient(siteHttpOver(fetchImplementation)).sendContactMessage(input);
    expect(result).toEqual({ status: "sent", message: "Thanks" });
    expect(new URL(seen!.url).pathname).toBe("/messages/contact/");
    expect(seen!.method).toBe("POST");
    expect(seen!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
    expect(seenBody).toEqual(input);
  });

  it("should show the server's message when the answer is not OK", async () => {
    expect(await createContactClient(siteHttpOver(answering(400, { message: "Please enter a valid e-mail address." }))).sendContactMessage(input)).toEqual({
      status: "error",
      message: "Please enter a valid e-mail address.",
    });
  });

  it("should show the server's 413 message when the message is too large", async () => {
    const serverMessage = "Your message is too large to send (the limit is 64 KB). Please shorten it and try again.";
    expect(await createContactClient(siteHttpOver(answering(413, { message: serverMessage }))).sendContactMessage(input)).toEqual({ status: "error", message: serverMessage });
  });

  it("should say the message is too large when a 413 comes without a message, as from a proxy's page", async () => {
    expect(await createContactClient(siteHttpOver(answering(413, "<html>413 Request Entity Too Large</html>", "text/html"))).sendContactMessage(input)).toEqual({ status: "error", message: CONTACT_TOO_LARGE_MESSAGE });
  });

  it("should fall back to 'Something went wrong' when the server says nothing usable", async () => {
    expect(await createContactClient(siteHttpOver(answering(500, "<html>oops</html>", "text/html"))).sendContactMessage(input)).toEqual({ status: "error", message: CONTACT_FALLBACK_ERROR_MESSAGE });
  });

  it("should report a network failure", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await createContactClient(siteHttpOver(failing)).sendContactMessage(input)).toEqual({ status: "error", message: CONTACT_NETWORK_ERROR_MESSAGE });
  });
});
