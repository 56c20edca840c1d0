import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { ImageManifest, ImageManifestEntry, ImageVariant, ResponsiveImageFormat } from "../src/image-sources.ts";

// 720 and 1280 are what the commonest phones draw a full-width picture at (360 or 412 CSS pixels at 1.75–2, 390 at
// 3), so they are not sent the next width up, which has half as many pixels again.
export const RESPONSIVE_IMAGE_WIDTHS: readonly number[] = [320, 640, 720, 960, 1280, 1600];

const FILE_EXTENSION_BY_FORMAT: Record<ResponsiveImageFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

// AVIF effort 2 with 4:2:0 chroma (sharp defaults to 4:4:4) keeps a full build near 40 s on two cores;
// higher efforts cost minutes for a few per cent of bytes.
const ENCODER_OPTIONS = {
  avif: { quality: 50, effort: 2, chromaSubsampling: "4:2:0" },
  webp: { quality: 78, effort: 4 },
  jpeg: { quality: 78, progressive: true, mozjpeg: true },
} as const;

const SOURCE_FILE_EXTENSIONS = new Set([".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff"]);

/**
 * The widths to make from an original: the standard widths that fit, plus the original width when it lies
 * between two of them, so the largest file is never upscaled and never loses resolution needlessly.
 *
 * @example
 * chooseVariantWidths(1000); // [320, 640, 720, 960, 1000]
 */
export function chooseVariantWidths(originalWidth: number): number[] {
  const largestStandardWidth = Math.max(...RESPONSIVE_IMAGE_WIDTHS);
  const fitting = RESPONSIVE_IMAGE_WIDTHS.filter((width) => width <= originalWidth);
  const largestWidth = Math.min(originalWidth, largestStandardWidth);
  return fitting.includes(largestWidth) ? fitting : [...fitting, largestWidth];
}

/**
 * Eight hex characters that change whenever the source bytes or the encoding change, so files can be cached forever.
 *
 * @example
 * createVariantHash(sourceBytes, 640, "webp"); // "3f9a0c1e"
 */
export function createVariantHash(sourceBytes: Uint8Array, width: number, format: ResponsiveImageFormat): string {
  return createHash("sha256")
    .update(sourceBytes)
    .update(JSON.stringify({ width, format, options: ENCODER_OPTIONS[format], vips: sharp.versions.vips }))
    .digest("hex")
    .slice(0, 8);
}

export function createVariantFileName(imageKey: string, width: number, format: ResponsiveImageFormat, hash: string): string {
  return `${imageKey}-${width}-${hash}.${FILE_EXTENSION_BY_FORMAT[format]}`;
}

async function isOutputNewerThanSource(outputPath: string, sourceModifiedMs: number): Promise<boolean> {
  try {
    return (await stat(outputPath)).mtimeMs >= sourceModifiedMs;
  } catch {
    return false;
  }
}

function encodeVariant(sourceBytes: Buffer, width: number, format: ResponsiveImageFormat): Promise<Buffer> {
  const resized = sharp(sourceBytes).autoOrient().resize({ width, withoutEnlargement: true });
  switch (format) {
    case "avif":
      return resized.avif(ENCODER_OPTIONS.avif).toBuffer();
    case "webp":
      return resized.webp(ENCODER_OPTIONS.webp).toBuffer();
    case "jpeg":
      return resized.jpeg(ENCODER_OPTIONS.jpeg).toBuffer();
    default:
      return format satisfies never;
  }
}

export interface ProcessedSourceImage {
  entry: ImageManifestEntry;
  writtenFileCount: number;
  skippedFileCount: number;
}

/**
 * The core of the pipeline: every width and format of one photograph, written into `outputDirectory`
 * unless an output with the same hash is already newer than the source.
 *
 * @example
 * const { entry } = await processSourceImage({ sourcePath: "images/bridge-to-freedom--1.jpg", imageKey: "bridge-to-freedom--1", outputDirectory: "dist/images" });
 */
export async function processSourceImage(options: { sourcePath: string; imageKey: string; outputDirectory: string }): Promise<ProcessedSourceImage> {
  const sourceBytes = await readFile(options.sourcePath);
  const sourceModifiedMs = (await stat(options.sourcePath)).mtimeMs;
  const metadata = await sharp(sourceBytes).metadata();
  const { width, height } = metadata.autoOrient;
  await mkdir(options.outputDirectory, { recursive: true });

  const variants: ImageVariant[] = [];
  let writtenFileCount = 0;
  let skippedFileCount = 0;
  for (const variantWidth of chooseVariantWidths(width)) {
    for (const format of ["avif", "webp", "jpeg"] as const) {
      const fileName = createVariantFileName(options.imageKey, variantWidth, format, createVariantHash(sourceBytes, variantWidth, format));
      const outputPath = path.join(options.outputDirectory, fileName);
      if (await isOutputNewerThanSource(outputPath, sourceModifiedMs)) {
        skippedFileCount += 1;
      } else {
        await writeFile(outputPath, await encodeVariant(sourceBytes, variantWidth, format));
        writtenFileCount += 1;
      }
      variants.push({ width: variantWidth, format, fileName });
    }
  }
  return { entry: { width, height, variants }, writtenFileCount, skippedFileCount };
}

/** The photographs of a folder by image key; dotfiles such as `.gitkeep` are ignored. */
export async function listSourceImages(imagesDirectory: string): Promise<Map<string, string>> {
  const sourcePathsByKey = new Map<string, string>();
  for (const fileName of (await readdir(imagesDirectory)).sort()) {
    if (fileName.startsWith(".")) continue;
    const extension = path.extname(fileName).toLowerCase();
    if (!SOURCE_FILE_EXTENSIONS.has(extension)) {
      throw new Error(`images/${fileName} is not a photograph this pipeline reads: use .jpg (or .jpeg, .png, .webp, .tif).`);
    }
    const imageKey = path.basename(fileName, path.extname(fileName));
    const alreadySeen = sourcePathsByKey.get(imageKey);
    if (alreadySeen !== undefined) {
      throw new Error(`images/${fileName} and images/${path.basename(alreadySeen)} are the same image '${imageKey}': keep only one.`);
    }
    sourcePathsByKey.set(imageKey, path.join(imagesDirectory, fileName));
  }
  return sourcePathsByKey;
}

/**
 * Fails with one sentence per mismatch between the photographs of images/ and the images named in content.ts.
 *
 * @example
 * assertSourceImagesMatchContent(["bridge-to-freedom--1.jpg"], ["bridge-to-freedom--1"]);
 */
export function assertSourceImagesMatchContent(sourceFileNames: readonly string[], expectedImageKeys: readonly string[]): void {
  const expected = new Set(expectedImageKeys);
  const presentKeys = new Set(sourceFileNames.map((fileName) => path.basename(fileName, path.extname(fileName))));
  const problems = [
    ...sourceFileNames
      .filter((fileName) => !expected.has(path.basename(fileName, path.extname(fileName))))
      .map((fileName) => `images/${fileName} has no entry in src/content.ts: add an image with this painting id and image id, or remove the file.`),
    ...expectedImageKeys
      .filter((imageKey) => !presentKeys.has(imageKey))
      .map((imageKey) => `src/content.ts names image '${imageKey}' but there is no file images/${imageKey}.jpg: add the photograph or remove the entry.`),
  ];
  if (problems.length > 0) {
    throw new Error(`The photographs and src/content.ts do not match:\n- ${problems.join("\n- ")}`);
  }
}

async function runWithConcurrency<Input, Output>(inputs: readonly Input[], concurrency: number, task: (input: Input) => Promise<Output>): Promise<Output[]> {
  const outputs: Output[] = new Array(inputs.length);
  let nextIndex = 0;
  async function worker(): Promise<void> {
    while (nextIndex < inputs.length) {
      const index = nextIndex;
      nextIndex += 1;
      outputs[index] = await task(inputs[index] as Input);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return outputs;
}

export interface BuiltImageCatalogue {
  manifest: ImageManifest;
  writtenFileCount: number;
  skippedFileCount: number;
  removedFileCount: number;
}

/**
 * Builds every photograph of `imagesDirectory` into `outputDirectory/images` and writes `outputDirectory/image-manifest.json`;
 * files of earlier builds that the manifest no longer names are removed.
 *
 * @example
 * await buildImageCatalogue({ imagesDirectory: "images", outputDirectory: "dist", expectedImageKeys: ["bridge-to-freedom--1"] });
 */
export async function buildImageCatalogue(options: { imagesDirectory: string; outputDirectory: string; expectedImageKeys: readonly string[] }): Promise<BuiltImageCatalogue> {
  const sourcePathsByKey = await listSourceImages(options.imagesDirectory);
  assertSourceImagesMatchContent([...sourcePathsByKey.values()].map((sourcePath) => path.basename(sourcePath)), options.expectedImageKeys);

  const variantDirectory = path.join(options.outputDirectory, "images");
  const keysAndPaths = [...sourcePathsByKey.entries()].sort(([left], [right]) => left.localeCompare(right));
  const processed = await runWithConcurrency(keysAndPaths, Math.max(1, availableParallelism()), ([imageKey, sourcePath]) =>
    processSourceImage({ sourcePath, imageKey, outputDirectory: variantDirectory }),
  );

  const manifest: ImageManifest = {};
  keysAndPaths.forEach(([imageKey], index) => {
    manifest[imageKey] = (processed[index] as ProcessedSourceImage).entry;
  });

  const referencedFileNames = new Set(Object.values(manifest).flatMap((entry) => entry.variants.map((variant) => variant.fileName)));
  let removedFileCount = 0;
  for (const fileName of await readdir(variantDirectory).catch(() => [] as string[])) {
    if (!referencedFileNames.has(fileName)) {
      await rm(path.join(variantDirectory, fileName));
      removedFileCount += 1;
    }
  }

  await mkdir(options.outputDirectory, { recursive: true });
  await writeFile(path.join(options.outputDirectory, "image-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    manifest,
    writtenFileCount: processed.reduce((sum, result) => sum + result.writtenFileCount, 0),
    skippedFileCount: processed.reduce((sum, result) => sum + result.skippedFileCount, 0),
    removedFileCount,
  };
}
