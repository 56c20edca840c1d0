import { describe, expect, it } from "vitest";
import { isValidEmailAddress } from "./email-address-syntax.ts";

describe("given addresses as people type them", () => {
  it("should accept what Django's EmailValidator accepts: apostrophes, plus tags, Punycode and internationalized domains, localhost", () => {
    for (const address of ["ada@example.com", "o'brien@example.com", "anna+atelier@example.ch", "user@xn--bcher-kva.ch", "anna@bücher.ch", "x_y.z{1}@sub.example.co.uk", "painter@localhost"]) {
      expect(isValidEmailAddress(address), address).toBe(true);
    }
  });

  it("should refuse what Django refuses, and quoted local parts and address literals too", () => {
    for (const address of ["", "ada", "@example.com", "ada@", "a..b@example.com", ".ada@example.com", "ada.@example.com", "a b@c.ch", "ada@b", "ada@-example.com", "ada@example-.com", "ada@exa_mple.com", "ada@example.c", '"a b"@example.com', "ada@[127.0.0.1]", "ada@exam ple.com", "ada@example.com\u0000", `${"a".repeat(250)}@b.ch`]) {
      expect(isValidEmailAddress(address), address).toBe(false);
    }
  });
});
