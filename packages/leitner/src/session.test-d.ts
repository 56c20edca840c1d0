import { expectTypeOf, test } from "vitest";
import { selectSessionCards } from "./session.ts";

test("selectSessionCards returns the caller's own pair type", () => {
  const pairs = [{ id: "p1", english: "Hello", swedish: "Hej" }];
  const cards = selectSessionCards(pairs, new Map(), { mode: "study", range: "all" }, new Date());
  expectTypeOf(cards).toEqualTypeOf<{ id: string; english: string; swedish: string }[]>();
});

test("selectSessionCards refuses pairs without a string id", () => {
  // @ts-expect-error numeric database ids must be converted with String(id) first
  selectSessionCards([{ id: 1 }], new Map(), { mode: "study", range: "all" }, new Date());
});
