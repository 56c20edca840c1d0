import { describe, expect, it } from "vitest";
import { createSessionUserGuesses } from "./session-user-guesses.ts";

describe("given the users of recently read sessions", () => {
  it("should guess the user a token's session last had, and nothing for a token never read", () => {
    const guesses = createSessionUserGuesses();
    guesses.remember("token-of-anna", "anna");
    expect(guesses.guess("token-of-anna")).toBe("anna");
    expect(guesses.guess("token-of-bert")).toBeNull();
    expect(guesses.guess("token-of-ann")).toBeNull();
  });

  it("should forget a token whose session signed nobody in when it was read", () => {
    const guesses = createSessionUserGuesses();
    guesses.remember("token-of-anna", "anna");
    guesses.remember("token-of-anna", null);
    expect(guesses.guess("token-of-anna")).toBeNull();
    expect(guesses.size).toBe(0);
  });

  it("should keep at most its capacity, forgetting the session read longest ago", () => {
    const guesses = createSessionUserGuesses(2);
    guesses.remember("first", "user-1");
    guesses.remember("second", "user-2");
    // Read again: now the most recent of the two.
    guesses.remember("first", "user-1");
    guesses.remember("third", "user-3");
    expect(guesses.size).toBe(2);
    expect([guesses.guess("first"), guesses.guess("second"), guesses.guess("third")]).toEqual(["user-1", null, "user-3"]);
  });
});
