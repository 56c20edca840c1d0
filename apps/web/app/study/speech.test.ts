import { describe, expect, it } from "vitest";
import { pickVoice } from "./speech.ts";

const voice = (lang: string, name = lang) => ({ lang, name }) as SpeechSynthesisVoice;

describe("pickVoice", () => {
  it("should prefer sv-SE and en-GB, then any voice of the language, and find none for a missing language", () => {
    const voices = [voice("en-US"), voice("en-GB"), voice("sv-FI"), voice("de-DE")];
    expect(pickVoice(voices, "en")?.lang).toBe("en-GB");
    expect(pickVoice(voices, "sv")?.lang).toBe("sv-FI");
    expect(pickVoice([voice("sv_SE"), voice("sv-FI")], "sv")?.lang).toBe("sv_SE");
    expect(pickVoice([voice("de-DE")], "sv")).toBeUndefined();
  });
});
