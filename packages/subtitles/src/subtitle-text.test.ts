import { describe, expect, it } from "vitest";
import { decodeDoubleEscapedEntities, detokenizeOpusTokens, endsWithSentenceFinalPunctuation, normalizeCueLines, removeDialogueDashes, stripInlineMarkup } from "./subtitle-text.ts";

describe("given YouTube's double-escaped text", () => {
  it("should decode character references and the XML names once more", () => {
    expect(decodeDoubleEscapedEntities("I&#39;m &amp; you&#x27;re &quot;here&quot;")).toBe(`I'm & you're "here"`);
  });

  it("should leave unknown names and forbidden code points alone", () => {
    expect(decodeDoubleEscapedEntities("&bogus; &#0; &#xD800;")).toBe("&bogus; &#0; &#xD800;");
  });
});

describe("given OPUS tokens", () => {
  it("should attach punctuation and English clitics to the previous word", () => {
    expect(detokenizeOpusTokens(["Framåt", ",", "Chauncey", "!"])).toBe("Framåt, Chauncey!");
    expect(detokenizeOpusTokens(["He", "'ll", "say", "it", "is", "n't", "so", "..."])).toBe("He'll say it isn't so...");
  });

  it("should close straight quotes against the quoted words", () => {
    expect(detokenizeOpusTokens(["He", "said", '"', "no", '"', "."])).toBe('He said "no".');
  });
});

describe("given cue text", () => {
  it("should collapse spaces, trim lines and drop empty lines", () => {
    expect(normalizeCueLines("  Hej \n\n   då  ")).toBe("Hej\ndå");
  });

  it("should strip formatting tags typed into the text", () => {
    expect(stripInlineMarkup("<i>Hej</i> {\\an8}där <font color=\"red\">du</font>")).toBe("Hej där du");
  });

  it("should tell sentence ends from continuations", () => {
    expect(endsWithSentenceFinalPunctuation("Vart ska du?")).toBe(true);
    expect(endsWithSentenceFinalPunctuation('He said "go."')).toBe(true);
    expect(endsWithSentenceFinalPunctuation("Then you know exactly how it felt...")).toBe(false);
    expect(endsWithSentenceFinalPunctuation("if you could,")).toBe(false);
  });
});

describe("removeDialogueDashes", () => {
  it.each([
    ["- Kommer du?\n- Ja, jag kommer.", "Kommer du?\nJa, jag kommer."],
    ["- Hej. - Hej då.", "Hej. Hej då."],
    ["- - Vad sa du?", "Vad sa du?"],
    ["– Var är du? – Här!", "Var är du? Här!"],
    ["—Nej.", "Nej."],
    ["-Are you coming?", "Are you coming?"],
    ["\"Stop.\" - And then?", "\"Stop.\" And then?"],
  ])("should take the speakers' dashes out of %j", (text, expected) => {
    expect(removeDialogueDashes(text)).toBe(expected);
  });

  it.each([
    ["Jag – jag vet inte.", "a pause inside a sentence"],
    ["Ett tjugo-tal gäster och en e-post.", "hyphens inside words"],
    ["It's 9 - 5 every day.", "a dash between numbers"],
  ])("should keep %j (%s)", (text) => {
    expect(removeDialogueDashes(text)).toBe(text);
  });

  it("should drop a line that held only a dash", () => {
    expect(removeDialogueDashes("-\nHej.")).toBe("Hej.");
  });
});
