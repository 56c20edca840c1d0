import { describe, expect, it } from "vitest";
import { manyLinesText, oneLineText, wellFormedText } from "./well-formed-text.ts";

const family = "👨\u200d👩\u200d👧";
const wavingWithSkinTone = "👋🏽\u200d🔥";
const heart = "❤\ufe0f\u200d🔥";

describe("given text a person typed", () => {
  it("should make half surrogate pairs one U+FFFD each, and leave whole pairs alone", () => {
    expect(wellFormedText("a\ud800b\udc00c😀")).toBe("a\ufffdb\ufffdc😀");
  });

  it("should keep a zero-width joiner between emoji, after a skin tone or a presentation selector too, and drop it between letters", () => {
    expect(oneLineText(`🎨${family} ✓`)).toBe(`🎨${family} ✓`);
    expect(oneLineText(wavingWithSkinTone)).toBe(wavingWithSkinTone);
    expect(oneLineText(heart)).toBe(heart);
    expect(oneLineText("pay\u200dpal")).toBe("paypal");
    expect(oneLineText("\u200d👩")).toBe("👩");
    expect(oneLineText("👩\u200d")).toBe("👩");
  });

  it("should drop bidi overrides, isolates, marks and zero-width characters on one line and on many", () => {
    const tricky = "Film\u202Egpj.exe\u200B\u2066x\u2069\u200e\u200f\ufeff\u061c\u2060";
    expect(oneLineText(tricky)).toBe("Filmgpj.exex");
    expect(manyLinesText(tricky)).toBe("Filmgpj.exex");
  });

  it("should make control characters and line breaks one space on one line, and keep a message's lines and tabs", () => {
    expect(oneLineText("  a\u0007b\r\nc\u2028d\u0085e\u0000f\tg  ")).toBe("a b c d e f g");
    expect(manyLinesText("  Hello,\r\n\r\nthe\tblue one\u0007?\rThanks\u2029Anna\u0000  ")).toBe("Hello,\n\nthe\tblue one ?\nThanks\nAnna");
  });
});
