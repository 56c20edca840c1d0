import { describe, expect, it } from "vitest";
import { CONTACT_FALLBACK_ERROR_MESSAGE, CONTACT_NETWORK_ERROR_MESSAGE, CONTACT_TOO_LARGE_MESSAGE, sendContactMessage, type ContactMessageInput } from "./contact-client.ts";

const input: ContactMessageInput = { name: "Ada", email: "ada@example.com", message: "Hello", recaptchaToken: "token", website: "" };

function answering(status: number, body: unknown, contentType = "application/json"): typeof fetch {
  return async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": contentType } });
}

describe("sendContactMessage", () => {
  it("should post the form as JSON to the contact path, echoing the CSRF cookie", async () => {
    document.cookie = "csrftoken=csrf-from-cookie";
    let seen: Request | undefined;
    let seenBody: unknown;
    const fetchImplementation: typeof fetch = async (request) => {
      seen = request as Request;
      seenBody = await seen.json();
      return new Response(JSON.stringify({ message: "Thanks" }), { status: 201, headers: { "content-type": "application/json" } });
    };
    const result = await sendContactMessage(input, fetchImplementation);
    expect(result).toEqual({ status: "sent", message: "Thanks" });
    expect(new URL(seen!.url).pathname).toBe("/messages/contact/");
    expect(seen!.method).toBe("POST");
    expect(seen!.headers.get("X-CSRFToken")).toBe("csrf-from-cookie");
    expect(seenBody).toEqual(input);
  });

  it("should show the server's message when the answer is not OK", async () => {
    expect(await sendContactMessage(input, answering(400, { message: "Please enter a valid e-mail address." }))).toEqual({
      status: "error",
      message: "Please enter a valid e-mail address.",
    });
  });

  it("should show the server's 413 message when the message is too large", async () => {
    const serverMessage = "Your message is too large to send (the limit is 64 KB). Please shorten it and try again.";
    expect(await sendContactMessage(input, answering(413, { message: serverMessage }))).toEqual({ status: "error", message: serverMessage });
  });

  it("should say the message is too large when a 413 comes without a message, as from a proxy's page", async () => {
    expect(await sendContactMessage(input, answering(413, "<html>413 Request Entity Too Large</html>", "text/html"))).toEqual({ status: "error", message: CONTACT_TOO_LARGE_MESSAGE });
  });

  it("should fall back to 'Something went wrong' when the server says nothing usable", async () => {
    expect(await sendContactMessage(input, answering(500, "<html>oops</html>", "text/html"))).toEqual({ status: "error", message: CONTACT_FALLBACK_ERROR_MESSAGE });
  });

  it("should report a network failure", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await sendContactMessage(input, failing)).toEqual({ status: "error", message: CONTACT_NETWORK_ERROR_MESSAGE });
  });
});
