// @vitest-environment node
import { describe, expect, it } from "vitest";
import { createMemorySessionTokenStorage, readCookieValue, readCsrfTokenFromDocumentCookie } from "./browser-environment.ts";

describe("readCookieValue", () => {
  it("finds a cookie among others", () => {
    expect(readCookieValue("theme=dark; csrftoken=abc123; sessionid=x", "csrftoken")).toBe("abc123");
  });

  it("does not confuse a cookie whose name ends like the one asked for", () => {
    expect(readCookieValue("xcsrftoken=wrong", "csrftoken")).toBeUndefined();
  });
});

describe("readCsrfTokenFromDocumentCookie", () => {
  it("gives undefined where there is no document", () => {
    expect(readCsrfTokenFromDocumentCookie()).toBeUndefined();
  });
});

describe("createMemorySessionTokenStorage", () => {
  it("keeps, gives and forgets values", () => {
    const storage = createMemorySessionTokenStorage();
    storage.setItem("sessionToken", "t");
    expect(storage.getItem("sessionToken")).toBe("t");
    storage.removeItem("sessionToken");
    expect(storage.getItem("sessionToken")).toBeNull();
  });
});
