import { describe, expect, it } from "vitest";
import { CONNECTED_OTHER_MESSAGE, continuePathAfterProviderFailure, explainProviderError, providerCallbackUrl } from "./provider-messages.ts";

describe("given allauth's provider error codes", () => {
  it("should explain the codes it knows", () => {
    expect(explainProviderError("cancelled")).toBe("The sign-in was cancelled at the provider.");
    expect(explainProviderError("connected_other")).toBe(CONNECTED_OTHER_MESSAGE);
    expect(explainProviderError("signup_closed")).toMatch(/Sign-up is closed/);
  });

  it("should have no extra line for unknown, a missing code or a code it does not know", () => {
    expect(explainProviderError("unknown")).toBeUndefined();
    expect(explainProviderError(null)).toBeUndefined();
    expect(explainProviderError("toString")).toBeUndefined();
  });

  it("should continue to the accounts page after a connection and to the login page otherwise", () => {
    expect(continuePathAfterProviderFailure("connect")).toBe("/account/providers");
    expect(continuePathAfterProviderFailure("login")).toBe("/account/login");
    expect(continuePathAfterProviderFailure(null)).toBe("/account/login");
  });

  it("should send a login back to the callback page and a connection back to the accounts page", () => {
    expect(providerCallbackUrl("login", "https://atelier.example")).toBe("https://atelier.example/account/provider/callback");
    expect(providerCallbackUrl("connect", "https://atelier.example")).toBe("https://atelier.example/account/providers");
  });
});
