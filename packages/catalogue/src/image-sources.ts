import type { ResponsiveImageSources } from "./types.ts";

/** Where the web app serves the files of `dist/images/`. */
export const PAINTING_IMAGE_URL_PREFIX = "/images/paintings/";

export type ResponsiveImageFormat = "avif" | "webp" | "jpeg";

export const RESPONSIVE_IMAGE_FORMATS: readonly ResponsiveImageFormat[] = ["avif", "webp", "jpeg"];

export interface ImageVariant {
  width: number;
  format: ResponsiveImageFormat;
  fileName: string;
}

/** One photograph in `dist/image-manifest.json`: the original's size and every file made from it. */
export interface ImageManifestEntry {
  width: number;
  height: number;
  variants: ImageVariant[];
}

/** Keyed by `createImageKey(paintingId, imageId)`. */
export type ImageManifest = Record<string, ImageManifestEntry>;

/**
 * The name shared by a photograph's file in `images/` and its manifest entry.
 *
 * @example
 * createImageKey("bridge-to-freedom", "2"); // "bridge-to-freedom--2"
 */
export function createImageKey(paintingId: string, imageId: string): string {
  return `${paintingId}--${imageId}`;
}

/**
 * Checks the shape of the manifest written by `scripts/build-images.ts`, so a stale or hand-edited file fails loudly.
 *
 * @example
 * const manifest = parseImageManifest(JSON.parse(text));
 */
export function parseImageManifest(value: unknown): ImageManifest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("dist/image-manifest.json is not an object: run `pnpm --filter @atelier/catalogue build` to rewrite it.");
  }
  const manifest: ImageManifest = {};
  for (const [imageKey, entry] of Object.entries(value)) {
    if (!isImageManifestEntry(entry)) {
      throw new Error(`dist/image-manifest.json has a malformed entry '${imageKey}': run \`pnpm --filter @atelier/catalogue build\` to rewrite it.`);
    }
    manifest[imageKey] = entry;
  }
  return manifest;
}

function isImageManifestEntry(entry: unknown): entry is ImageManifestEntry {
  if (typeof entry !== "object" || entry === null) return false;
  const candidate = entry as Partial<ImageManifestEntry>;
  return (
    typeof candidate.width === "number" &&
    typeof candidate.height === "number" &&
    Array.isArray(candidate.variants) &&
    candidate.variants.length > 0 &&
    candidate.variants.every(
      (variant: Partial<ImageVariant>) =>
        typeof variant.width === "number" &&
        typeof variant.fileName === "string" &&
        RESPONSIVE_IMAGE_FORMATS.includes(variant.format as ResponsiveImageFormat),
    ) &&
    candidate.variants.some((variant) => variant.format === "jpeg")
  );
}

/**
 * The site-relative URL of one file of `dist/images/`.
 *
 * @example
 * createPaintingImageUrl("bridge-to-freedom--1-640-0a1b2c3d.jpg"); // "/images/paintings/bridge-to-freedom--1-640-0a1b2c3d.jpg"
 */
export function createPaintingImageUrl(fileName: string): string {
  return `${PAINTING_IMAGE_URL_PREFIX}${fileName}`;
}

function listVariantsByWidth(entry: ImageManifestEntry, format: ResponsiveImageFormat): ImageVariant[] {
  return entry.variants.filter((variant) => variant.format === format).sort((left, right) => left.width - right.width);
}

function createSrcSet(entry: ImageManifestEntry, format: ResponsiveImageFormat): string {
  return listVariantsByWidth(entry, format)
    .map((variant) => `${createPaintingImageUrl(variant.fileName)} ${variant.width}w`)
    .join(", ");
}

/** The widest JPEG no wider than `maximumWidth`, or the narrowest JPEG when all are wider. */
export function selectJpegVariantUpToWidth(entry: ImageManifestEntry, maximumWidth: number): ImageVariant {
  const jpegVariants = listVariantsByWidth(entry, "jpeg");
  const narrowEnough = jpegVariants.filter((variant) => variant.width <= maximumWidth);
  const chosen = narrowEnough.at(-1) ?? jpegVariants[0];
  if (chosen === undefined) {
    throw new Error("An image manifest entry has no JPEG variant; parseImageManifest should have rejected it (bug in @atelier/catalogue).");
  }
  return chosen;
}

/**
 * The `<picture>` sources of one manifest entry.
 *
 * @example
 * const sources = createResponsiveImageSources(manifest["bridge-to-freedom--1"]);
 * // sources.avifSrcSet === "/images/paintings/bridge-to-freedom--1-320-….avif 320w, …"
 */
export function createResponsiveImageSources(entry: ImageManifestEntry): ResponsiveImageSources {
  return {
    avifSrcSet: createSrcSet(entry, "avif"),
    webpSrcSet: createSrcSet(entry, "webp"),
    jpegSrcSet: createSrcSet(entry, "jpeg"),
    fallbackSrc: createPaintingImageUrl(selectJpegVariantUpToWidth(entry, 960).fileName),
    width: entry.width,
    height: entry.height,
  };
}
