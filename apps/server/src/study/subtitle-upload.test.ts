import fs from "node:fs";
import path from "node:path";
import { parseSubtitleXmlInWorker } from "@atelier/subtitles/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseEngines, type TestDatabase } from "../database/test-databases.ts";
import { testOrigin } from "../identity/testing/identity-test-client.ts";
import { uploadAlreadyArrivingMessage, uploadTooLargeMessage } from "./subtitle-upload.ts";
import { createStudyTestClient, englishFixture, swedishFixture, type StudyTestClient } from "./testing/study-test-client.ts";
import { countStudyRows, createStudyTestApp } from "./testing/study-test-app.ts";

const sharedFixtureDirectory = "/work/shared/fixtures/subtitles";
const opusEnglish = path.join(sharedFixtureDirectory, "opensubs2018-209475.en.54828.xml");
const opusEstonian = path.join(sharedFixtureDirectory, "opensubs2018-209475.et.3123721.xml");
const hasSharedFixtures = fs.existsSync(opusEnglish) && fs.existsSync(opusEstonian);
if (!hasSharedFixtures) {
  console.warn(`Skipping the real OPUS en–et upload: ${sharedFixtureDirectory} (opensubs2018-209475.*.xml) is absent.`);
}

function ttmlTime(milliseconds: number): string {
  const date = new Date(milliseconds);
  return `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}:${String(date.getUTCSeconds()).padStart(2, "0")}.${String(date.getUTCMilliseconds()).padStart(3, "0")}`;
}

/** A film of `count` one-sentence cues whose rhythm comes from a seeded generator: two seeds, two unrelated films. */
function syntheticFilm(seed: number, count: number, language: string): string {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  let time = 2_000;
  const cues: string[] = [];
  for (let index = 0; index < count; index += 1) {
    time += 300 + Math.floor(random() * 6_000);
    const duration = 900 + Math.floor(random() * 3_500);
    cues.push(`<p begin="${ttmlTime(time)}" end="${ttmlTime(time + duration)}">Line ${index} of film ${seed}.</p>`);
    time += duration;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="${language}"><body><div>\n${cues.join("\n")}\n</div></body></tt>\n`;
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 ${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level === 0 ? "" : level};`.repeat(10)}">`).join("\n ")}
]>
<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="00:00:01.000" end="00:00:02.000">&lol9;</p></div></body></tt>`;

const externalEntity = `<?xml version="1.0"?>
<!DOCTYPE tt [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="00:00:01.000" end="00:00:02.000">&xxe;</p></div></body></tt>`;

const deeplyNested = `<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml">${"<div>".repeat(100_000)}${"</div>".repeat(100_000)}</tt>`;

function binaryBytes(): Uint8Array {
  const bytes = new Uint8Array(64 * 1024);
  let state = 7;
  for (let index = 0; index < bytes.length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    bytes[index] = state % 256;
  }
  bytes[0] = 0x89;
  bytes[1] = 0x00;
  return bytes;
}

function fiftyMegabytes(): Uint8Array {
  const bytes = new Uint8Array(50 * 1024 * 1024).fill(0x61);
  bytes.set(new TextEncoder().encode('<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml"><!--'));
  return bytes;
}

const notSubtitles = `<?xml version="1.0"?><catalog><book id="1"><title>Röda rummet</title><author>Strindberg</author></book></catalog>`;

let testDatabase: TestDatabase;
let owner: StudyTestClient;
let app: ReturnType<typeof createStudyTestApp>;

beforeAll(async () => {
  // The first parse starts a worker that loads TypeScript; the timed cases measure the server, not that start.
  await Promise.all([parseSubtitleXmlInWorker(englishFixture), parseSubtitleXmlInWorker(englishFixture)]);
});

describe.each(testDatabaseEngines)("given hostile uploads on %s", (engine) => {
  beforeEach(async () => {
    testDatabase = await openTestDatabase(engine);
    app = createStudyTestApp(testDatabase);
    owner = createStudyTestClient(app);
    await owner.signUp("owner@example.ch");
    return () => testDatabase.destroy();
  });

  const cases: [string, () => Parameters<StudyTestClient["upload"]>[0], RegExp][] = [
    ["entity expansion (billion laughs)", () => ({ swedish: { name: "lol.xml", bytes: billionLaughs } }), /^The Swedish file: This file declares its own XML entities/],
    ["an external entity", () => ({ english: { name: "xxe.xml", bytes: externalEntity } }), /^The English file: This file declares its own XML entities/],
    ["100,000 nested elements", () => ({ swedish: { name: "deep.xml", bytes: deeplyNested } }), /^The Swedish file: This file is nested far deeper than any subtitle file/],
    ["a binary file named .xml", () => ({ english: { name: "picture.xml", bytes: binaryBytes() } }), /^The English file: This file is not a text file\. Please upload an XML subtitle file\.$/],
    ["an XML file that is not subtitles", () => ({ swedish: { name: "books.xml", bytes: notSubtitles } }), /^The Swedish file: This XML file does not contain subtitles in a format we know\./],
    [
      "two files of unrelated films",
      () => ({ english: { name: "film-a.en.xml", bytes: syntheticFilm(11, 500, "en") }, swedish: { name: "film-b.sv.xml", bytes: syntheticFilm(977, 520, "sv") } }),
      /^These two files do not seem to belong to the same film or episode: .+ Please upload the English and the Swedish subtitles of the same film or episode\.$/,
    ],
    [
      "two files that share almost nothing",
      () => ({ swedish: { name: "short.sv.xml", bytes: syntheticFilm(5, 6, "sv") } }),
      /^These two files do not seem to belong to the same film or episode: only \d sentence pairs? could be matched\./,
    ],
    [
      "the two files swapped",
      () => ({ english: { name: "film.sv.xml", bytes: syntheticFilm(11, 500, "sv") }, swedish: { name: "film.en.xml", bytes: syntheticFilm(11, 500, "en") } }),
      /^The two files seem to be swapped: the English file is marked as Swedish, and the Swedish file as English\. Please choose each file in its own field\.$/,
    ],
    [
      "the English file chosen twice",
      () => ({ english: { name: "film.en.xml", bytes: syntheticFilm(11, 500, "en-GB") }, swedish: { name: "film.en.xml", bytes: syntheticFilm(11, 500, "en-GB") } }),
      /^The Swedish file is marked as English \(xml:lang="en-GB"\)\. Please choose the Swedish subtitles in the Swedish field\.$/,
    ],
  ];

  it.each(cases)("should refuse %s with a clear 400, store nothing and keep serving", async (_name, files, message) => {
    const response = await owner.upload(files());
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatch(message);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    expect((await owner.get("/api/subtitle-groups/")).body).toMatchObject({ groups: [] });
    expect((await owner.upload()).status).toBe(201);
  });

  it("should refuse a request over 11 MB by its Content-Length before reading it", async () => {
    const response = await app.request("/api/upload-subtitles/", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(12 * 1024 * 1024) },
      body: "--x--",
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: uploadTooLargeMessage, message: uploadTooLargeMessage });
  });

  it("should refuse a 50 MB file with 413 and the upload screen's sentence, store nothing and keep serving", async () => {
    const response = await owner.upload({ english: { name: "huge.xml", bytes: fiftyMegabytes() } });
    expect(response.status).toBe(413);
    expect(response.body.error).toBe(uploadTooLargeMessage);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 0, pairs: 0 });
    expect((await owner.upload()).status).toBe(201);
  });

  it.skipIf(!hasSharedFixtures)("should upload the real OPUS English–Estonian pair as about 1,200 cards without a warning", async () => {
    const response = await owner.upload({
      english: { name: path.basename(opusEnglish), bytes: fs.readFileSync(opusEnglish) },
      swedish: { name: path.basename(opusEstonian), bytes: fs.readFileSync(opusEstonian) },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.pair_count).toBeGreaterThan(1_100);
    expect(response.body.report.warning).toBeUndefined();
    expect(response.body.group.name).toBe("opensubs2018-209475 en 54828");
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 1, pairs: response.body.pair_count });
  });

  /** An upload whose client sends the English file, then nothing until `finish` (a client on a slow line, or a script). */
  function stalledUpload(client: StudyTestClient) {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const boundary = "----atelier-stalled-upload";
    const encoder = new TextEncoder();
    const part = (name: string, fileName: string, bytes: Uint8Array) => [encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: text/xml\r\n\r\n`), bytes, encoder.encode("\r\n")];
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const chunk of part("english", "Morning Train.en.xml", englishFixture)) controller.enqueue(chunk);
        await finished;
        for (const chunk of part("swedish", "Morning Train.sv.xml", swedishFixture)) controller.enqueue(chunk);
        controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
        controller.close();
      },
    });
    const headers = {
      Cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      Origin: testOrigin,
      "X-CSRFToken": client.cookies.get("csrftoken") ?? "",
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    };
    const response = Promise.resolve(app.request("/api/upload-subtitles/", { method: "POST", headers, body, duplex: "half" } as RequestInit));
    return { response, finish };
  }

  it("should let slow uploads hold no other uploader's turn, and let two uploads of an uploader arrive at a time", async () => {
    const stalled = Array.from({ length: 5 }, () => stalledUpload(owner));
    // Which two arrive first is the server's order, not the test's: the three answered at once are the refused ones.
    const answered: Response[] = [];
    const threeAnswered = new Promise<void>((resolve) => {
      for (const upload of stalled) {
        void upload.response.then((response) => {
          answered.push(response);
          if (answered.length === 3) resolve();
        });
      }
    });
    await threeAnswered;
    for (const response of answered.slice(0, 3)) {
      expect(response.status).toBe(429);
      expect(((await response.json()) as { error: string }).error).toBe(uploadAlreadyArrivingMessage);
    }
    const other = createStudyTestClient(app);
    await other.signUp("other@example.ch");
    expect((await other.upload()).status).toBe(201);
    for (const upload of stalled) upload.finish();
    const statuses = (await Promise.all(stalled.map((upload) => upload.response))).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 201, 429, 429, 429]);
    expect(await countStudyRows(testDatabase)).toEqual({ groups: 3, pairs: 42 });
  });
});
