import { describe, expect, it } from "vitest";
import { alignSubtitleTracks, isNonDialogueCue } from "./align-subtitle-tracks.ts";
import type { ParsedSubtitleTrack, SubtitleCue } from "./subtitle-types.ts";

function cue(startSeconds: number, endSeconds: number, text: string): SubtitleCue {
  return { startMilliseconds: startSeconds * 1000, endMilliseconds: endSeconds * 1000, text };
}

/** A deterministic film-like track: irregular cue lengths and gaps, so the "subtitle on" signal has a shape. */
function makeTrack(cueCount: number, language: "en" | "sv"): SubtitleCue[] {
  const cues: SubtitleCue[] = [];
  let time = 30_000;
  for (let index = 0; index < cueCount; index += 1) {
    const duration = 1_200 + ((index * 7_919) % 3_300);
    cues.push({ startMilliseconds: time, endMilliseconds: time + duration, text: language === "en" ? `Line ${index}.` : `Rad ${index}.` });
    time += duration + 200 + ((index * 104_729) % 2_900);
  }
  return cues;
}

function shiftAndStretch(cues: readonly SubtitleCue[], ratio: number, offsetMilliseconds: number): SubtitleCue[] {
  return cues.map((entry) => ({
    ...entry,
    startMilliseconds: Math.round(entry.startMilliseconds * ratio + offsetMilliseconds),
    endMilliseconds: Math.round(entry.endMilliseconds * ratio + offsetMilliseconds),
  }));
}

describe("given two identical timelines", () => {
  const english = makeTrack(300, "en");
  const swedish = makeTrack(300, "sv");
  const { pairs, report } = alignSubtitleTracks(english, swedish);

  it("should pair every cue with its counterpart", () => {
    expect(pairs).toHaveLength(300);
    expect(pairs[10]).toMatchObject({ english: "Line 10.", swedish: "Rad 10.", englishCueIndexes: [10], swedishCueIndexes: [10] });
  });

  it("should report no offset, ratio 1, full coverage and no warning", () => {
    expect(report.offsetMilliseconds).toBe(0);
    expect(report.frameRateRatio).toBeCloseTo(1, 4);
    expect(report.englishCoverage).toBe(1);
    expect(report.swedishCoverage).toBe(1);
    expect(report.meanOverlap).toBeCloseTo(1, 6);
    expect(report.linkTypeCounts).toEqual({ "1:1": 300 });
    expect(report.warning).toBeUndefined();
  });
});

describe("given a Swedish track that is late by 42 s and runs at 25 instead of 23.976 fps", () => {
  it("should recover the map and still pair every cue", () => {
    const english = makeTrack(400, "en");
    const swedish = shiftAndStretch(makeTrack(400, "sv"), 23.976 / 25, 42_000);
    const { pairs, report } = alignSubtitleTracks(english, swedish);
    expect(report.frameRateRatio).toBeCloseTo(25 / 23.976, 3);
    expect(pairs.every((pair) => pair.english.slice(5) === pair.swedish.slice(4))).toBe(true);
    expect(pairs.length).toBeGreaterThanOrEqual(396);
  });
});

describe("given one English cue split into two Swedish cues", () => {
  it("should read the two Swedish cues as one sentence and make one card of it", () => {
    const english = [cue(10, 14, "I never said that, and you know it."), cue(20, 22, "Go.")];
    const swedish = [cue(10, 12, "Det har jag aldrig sagt,"), cue(12.1, 14, "och det vet du."), cue(20, 22, "Gå.")];
    const { pairs, report } = alignSubtitleTracks(english, swedish, { maximumOffsetMilliseconds: 5_000 });
    expect(pairs[0]).toMatchObject({ englishCueIndexes: [0], swedishCueIndexes: [0, 1], englishSentenceIndexes: [0], swedishSentenceIndexes: [0], swedish: "Det har jag aldrig sagt, och det vet du." });
    expect(report.linkTypeCounts["1:1"]).toBe(2);
  });
});

describe("given one English sentence translated by two Swedish sentences", () => {
  it("should make one 1:2 card, and keep the next sentences on cards of their own", () => {
    const english = [cue(10, 14, "I never said that, and you know it."), cue(20, 22, "Go."), cue(24, 26, "Now!")];
    const swedish = [cue(10, 14, "Det har jag aldrig sagt. Det vet du."), cue(20, 22, "Gå."), cue(24, 26, "Nu!")];
    const { pairs, report } = alignSubtitleTracks(english, swedish, { maximumOffsetMilliseconds: 5_000 });
    expect(pairs.map((pair) => [pair.english, pair.swedish])).toEqual([
      ["I never said that, and you know it.", "Det har jag aldrig sagt. Det vet du."],
      ["Go.", "Gå."],
      ["Now!", "Nu!"],
    ]);
    expect(pairs[0]).toMatchObject({ englishSentenceIndexes: [0], swedishSentenceIndexes: [0, 1] });
    expect(report).toMatchObject({ multiSentenceCardCount: 1, englishSentenceCount: 3, swedishSentenceCount: 4 });
  });
});

describe("given cues that continue a sentence", () => {
  it("should merge links until both sides end a sentence", () => {
    const english = [cue(10, 12, "If you could just get people"), cue(12.2, 14, "to see it."), cue(16, 18, "Fine.")];
    const swedish = [cue(10, 12, "Om du bara kunde få folk"), cue(12.2, 14, "att se det."), cue(16, 18, "Okej.")];
    const { pairs } = alignSubtitleTracks(english, swedish, { maximumOffsetMilliseconds: 5_000 });
    expect(pairs.map((pair) => [pair.english, pair.swedish])).toEqual([
      ["If you could just get people to see it.", "Om du bara kunde få folk att se det."],
      ["Fine.", "Okej."],
    ]);
    expect(pairs[0]).toMatchObject({ startMilliseconds: 10_000, endMilliseconds: 14_000 });
  });
});

describe("given title cards, credits and lyrics", () => {
  it("should recognise them as non-dialogue", () => {
    expect(isNonDialogueCue("SÉRIE NETFLIX ORIGINAL")).toBe(true);
    expect(isNonDialogueCue("Översättning: Anna Svensson www.divxsweden.net")).toBe(true);
    expect(isNonDialogueCue("♪ Jingle bells ♪")).toBe(true);
    expect(isNonDialogueCue("[MUSIK]")).toBe(true);
    expect(isNonDialogueCue("Vart ska du?")).toBe(false);
  });

  it("should leave them out of the cards", () => {
    const english = [cue(1, 3, "A NETFLIX ORIGINAL SERIES"), ...makeTrack(50, "en")];
    const swedish = [cue(1, 3, "[MUSIK]"), ...makeTrack(50, "sv")];
    const { pairs } = alignSubtitleTracks(english, swedish);
    expect(pairs[0]).toMatchObject({ englishCueIndexes: [1], swedishCueIndexes: [1] });
  });
});

describe("given an on-screen caption and a song among the dialogue cues", () => {
  // The German release shows the sign "WEIT WEIT WEG" inside an unfinished sentence, and both sing between lines.
  const english = [
    cue(10, 12, "And then we drove"),
    cue(12.5, 14, "FAR FAR AWAY"),
    cue(14.2, 16, "all the way to the sea."),
    cue(18, 20, "♪ Row, row, row your boat ♪"),
    cue(20, 22, "♪ Gently down the stream"),
    cue(23, 25, "Who sang that?"),
  ];
  const german = [
    cue(10, 12, "Und dann fuhren wir"),
    cue(12.5, 14, "WEIT WEIT WEG"),
    cue(14.2, 16, "bis ans Meer."),
    cue(18, 20, "♪ Ruder, ruder, ruder dein Boot ♪"),
    cue(20, 22, "♪ Sanft den Bach hinab"),
    cue(23, 25, "Wer hat das gesungen?"),
  ];

  it("should keep the caption out of the sentence it interrupts and make no card of the song", () => {
    const { pairs } = alignSubtitleTracks(english, german, { maximumOffsetMilliseconds: 2_000 });
    expect(pairs.map((pair) => [pair.english, pair.swedish])).toEqual([
      ["And then we drove all the way to the sea.", "Und dann fuhren wir bis ans Meer."],
      ["Who sang that?", "Wer hat das gesungen?"],
    ]);
    expect(pairs[0]).toMatchObject({ englishCueIndexes: [0, 2], swedishCueIndexes: [0, 2] });
  });

  it("should leave them out of the cards when the file marks its sentences (OPUS)", () => {
    const track = (cues: SubtitleCue[]): ParsedSubtitleTrack => ({
      format: "opus",
      cues,
      droppedCues: [],
      sentences: cues.map((entry, index) => ({ id: String(index + 1), text: entry.text, startMilliseconds: entry.startMilliseconds, endMilliseconds: entry.endMilliseconds })),
    });
    const { pairs, sentences } = alignSubtitleTracks(track(english), track(german), { maximumOffsetMilliseconds: 2_000 });
    expect(sentences.swedish.map((sentence) => sentence.id)).toEqual(["1", "3", "6"]);
    expect(pairs.some((pair) => /WEIT|AWAY|♪|Boot|boat/.test(`${pair.english} ${pair.swedish}`))).toBe(false);
    expect(pairs.at(-1)).toMatchObject({ english: "Who sang that?", swedish: "Wer hat das gesungen?" });
  });
});

describe("given automatic captions that roll over two lines", () => {
  it("should drop the repeated line before pairing", () => {
    const english = [cue(1, 3, "hey everyone\nthis is"), cue(3, 5, "this is\nlinear algebra")];
    const swedish = [cue(1, 3, "hej alla"), cue(3, 5, "det här är linjär algebra")];
    const { pairs } = alignSubtitleTracks(english, swedish, { maximumOffsetMilliseconds: 2_000, minimumCardOverlap: 0.3 });
    expect(pairs.map((pair) => pair.english).join(" ")).toBe("hey everyone this is linear algebra");
  });
});

describe("given two unrelated timelines", () => {
  it("should warn that the files are not the same cut or episode", () => {
    const english = makeTrack(400, "en");
    const unrelated = makeTrack(400, "sv").map((entry, index) => ({
      ...entry,
      startMilliseconds: 30_000 + index * 4_100 + ((index * 7_877) % 1_500),
      endMilliseconds: 30_000 + index * 4_100 + ((index * 7_877) % 1_500) + 900 + ((index * 3_571) % 4_000),
    }));
    const { report } = alignSubtitleTracks(english, unrelated);
    expect(report.warning).toMatch(/^These two files do not seem to be the same cut or episode: /);
  });
});

describe("given cues where dashes mark the speakers", () => {
  it("should leave the dashes out of the cards' text", () => {
    const english = makeTrack(120, "en");
    const swedish = makeTrack(120, "sv").map((entry, index) => (index === 40 ? { ...entry, text: "- Kommer du?\n- Ja. - Bra." } : index === 41 ? { ...entry, text: "- - Vänta!" } : entry));
    const englishWithDashes = english.map((entry, index) => (index === 40 ? { ...entry, text: "- Are you coming?\n- Yes. - Good." } : entry));
    const { pairs } = alignSubtitleTracks(englishWithDashes, swedish);
    // Each speaker's sentence is a card of its own.
    expect(pairs.find((pair) => pair.swedish === "Kommer du?")?.english).toBe("Are you coming?");
    expect(pairs.find((pair) => pair.swedish === "Bra.")?.english).toBe("Good.");
    expect(pairs.find((pair) => pair.swedish.includes("Vänta!"))?.swedish).toBe("Vänta!");
    expect(pairs.some((pair) => /(^|\s)[-–—]\s/.test(`${pair.english} ${pair.swedish}`))).toBe(false);
  });
});

describe("given two identical files with strictly periodic timings (a cue every second)", () => {
  it("should take the smallest of the offsets that fit equally and pair each cue with itself, without a warning", () => {
    const cues = Array.from({ length: 300 }, (_, index) => cue(index, index + 0.8, `Line ${index}.`));
    const { pairs, report } = alignSubtitleTracks(cues, cues);
    expect(report).toMatchObject({ offsetMilliseconds: 0, frameRateRatio: 1 });
    expect(report.warning).toBeUndefined();
    expect(pairs).toHaveLength(300);
    expect(pairs.every((pair) => pair.english === pair.swedish)).toBe(true);
  });
});

describe("given a file whose cues are not listed in time order", () => {
  it("should read them in time order, each keeping its own index in the file", () => {
    const english = makeTrack(200, "en");
    const swedish = makeTrack(200, "sv");
    // The file's cues in blocks of ten, the blocks listed from the last to the first.
    const shuffled = Array.from({ length: 20 }, (_, block) => english.slice((19 - block) * 10, (20 - block) * 10)).flat();
    const inOrder = alignSubtitleTracks(english, swedish);
    const outOfOrder = alignSubtitleTracks(shuffled, swedish);
    expect(outOfOrder.report).toEqual(inOrder.report);
    expect(outOfOrder.pairs.map((pair) => [pair.english, pair.swedish, pair.startMilliseconds])).toEqual(inOrder.pairs.map((pair) => [pair.english, pair.swedish, pair.startMilliseconds]));
    expect(outOfOrder.pairs[5]).toMatchObject({ english: "Line 5.", englishCueIndexes: [195] });
  });
});
