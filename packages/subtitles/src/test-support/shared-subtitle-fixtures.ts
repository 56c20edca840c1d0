import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The real subtitle files of `../shared/fixtures/subtitles/`, read in place (see PROVENANCE.md there). */
export const SHARED_SUBTITLE_FIXTURE_DIRECTORY = path.resolve(packageDirectory, "../../../shared/fixtures/subtitles");

export const sharedSubtitleFixturesAreMissing = !existsSync(SHARED_SUBTITLE_FIXTURE_DIRECTORY);

if (sharedSubtitleFixturesAreMissing) {
  console.warn(`Skipping the shared subtitle fixture suites: ${SHARED_SUBTITLE_FIXTURE_DIRECTORY} does not exist.`);
}

export function readSharedSubtitleFixture(fileName: string): Buffer {
  return readFileSync(path.join(SHARED_SUBTITLE_FIXTURE_DIRECTORY, fileName));
}

const ownFixtureDirectory = path.resolve(packageDirectory, "src/test-fixtures");

export function readOwnSubtitleFixture(fileName: string): Buffer {
  return readFileSync(path.join(ownFixtureDirectory, fileName));
}
