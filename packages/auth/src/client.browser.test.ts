import { afterEach, describe, expect, it } from "vitest";
import { createAllauthClient } from "./client.ts";
import { authenticatedByPassword } from "./test-support/allauth-answers.ts";

describe("given a browser-mode client in a page", () => {
  afterEach(() => {
    document.cookie = "csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT";
  });

  it("resolves a relative base URL against the page and reads the csrftoken cookie by default", async () => {
    document.cookie = "csrftoken=from-the-cookie";
    const seen: Array<{ url: string; csrfToken: string | null }> = [];
    const client = createAllauthClient({
      baseUrl: "/_allauth",
      clientType: "browser",
      fetch: async (input) => {
        const request = input as Request;
        seen.push({ url: request.url, csrfToken: request.headers.get("X-CSRFToken") });
        return new Response(JSON.stringify(authenticatedByPassword), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        });
      },
    });
    const result = await client.login({ email: "a@b.org", password: "pw" });
    expect(result.status).toBe(200);
    expect(seen).toEqual([{ url: "http://localhost:3000/_allauth/browser/v1/auth/login", csrfToken: "from-the-cookie" }]);
  });
});
