import imageManifestJson from "../dist/image-manifest.json" with { type: "json" };
import { paintingContents } from "./content.ts";
import {
  createImageKey,
  createPaintingImageUrl,
  createResponsiveImageSources,
  parseImageManifest,
  selectJpegVariantUpToWidth,
  type ImageManifest,
} from "./image-sources.ts";
import { SOLD, type Painting, type PaintingContent, type PaintingImage } from "./types.ts";

function createPaintingImages(content: PaintingContent, manifest: ImageManifest): PaintingImage[] {
  return content.images.map((imageContent) => {
    const imageKey = createImageKey(content.id, imageContent.id);
    const entry = manifest[imageKey];
    if (entry === undefined) {
      throw new Error(
        `No photograph '${imageKey}' in dist/image-manifest.json: put images/${imageKey}.jpg in @atelier/catalogue and run \`pnpm --filter @atelier/catalogue build\`.`,
      );
    }
    return {
      id: imageContent.id,
      alt: imageContent.alt,
      thumb: createPaintingImageUrl(selectJpegVariantUpToWidth(entry, 640).fileName),
      full: createPaintingImageUrl(selectJpegVariantUpToWidth(entry, Number.POSITIVE_INFINITY).fileName),
      width: entry.width,
      height: entry.height,
      sources: createResponsiveImageSources(entry),
    };
  });
}

/**
 * Joins the painter's text with the built photographs.
 *
 * @example
 * const paintings = createPaintings(paintingContents, parseImageManifest(json));
 */
export function createPaintings(contents: readonly PaintingContent[], manifest: ImageManifest): Painting[] {
  return contents.map((content) => ({ ...content, images: createPaintingImages(content, manifest) }));
}

/**
 * All eight paintings of the catalogue, in the catalogue's order, with their image URLs.
 *
 * @example
 * paintings.map((painting) => painting.title);
 */
export const paintings: readonly Painting[] = createPaintings(paintingContents, parseImageManifest(imageManifestJson));

/**
 * The painting of a detail route, or undefined for an unknown slug.
 *
 * @example
 * findPaintingById("bridge-to-freedom")?.priceCHF; // 4160
 */
export function findPaintingById(id: string): Painting | undefined {
  return paintings.find((painting) => painting.id === id);
}

/**
 * The painting and image of a viewer route `/{paintingId}/image/{imageId}`; undefined means 'Image not found'.
 *
 * @example
 * const found = findPaintingImage("bridge-to-freedom", "2");
 * if (found) console.info(`${found.imageIndex + 1} of ${found.painting.images.length}`);
 */
export function findPaintingImage(
  paintingId: string,
  imageId: string,
): { painting: Painting; image: PaintingImage; imageIndex: number } | undefined {
  const painting = findPaintingById(paintingId);
  if (painting === undefined) return undefined;
  const imageIndex = painting.images.findIndex((image) => image.id === imageId);
  const image = painting.images[imageIndex];
  if (image === undefined) return undefined;
  return { painting, image, imageIndex };
}

/**
 * True when the painting's purchase link has been replaced by SOLD.
 *
 * @example
 * isPaintingSold(findPaintingById("the-face-i-dont-show")!); // true
 */
export function isPaintingSold(painting: Painting): boolean {
  return painting.stripeUrl === SOLD;
}
