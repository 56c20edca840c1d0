// The package's `build`: turns the photographs of images/ into dist/images/ and dist/image-manifest.json.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { paintingContents } from "../src/content.ts";
import { createImageKey } from "../src/image-sources.ts";
import { buildImageCatalogue } from "./image-pipeline.ts";

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const startedAt = performance.now();

try {
  const result = await buildImageCatalogue({
    imagesDirectory: path.join(packageDirectory, "images"),
    outputDirectory: path.join(packageDirectory, "dist"),
    expectedImageKeys: paintingContents.flatMap((painting) => painting.images.map((image) => createImageKey(painting.id, image.id))),
  });
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.info(
    `@atelier/catalogue: ${Object.keys(result.manifest).length} photographs, ${result.writtenFileCount} files written, ${result.skippedFileCount} up to date, ${result.removedFileCount} stale removed, in ${seconds} s.`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
