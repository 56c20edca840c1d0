import { paintings } from "@atelier/catalogue";

/** Pages served as ready-made HTML. `/__not-found` is the page the server answers with status 404. */
export const STATIC_PUBLIC_PATHS = ["/", "/paintings", "/about", "/events", "/expositions", "/contact", "/privacy-policy", "/Licence"] as const;

export const NOT_FOUND_PATH = "/__not-found";

export function listPrerenderedPaths(): string[] {
  const paintingPaths = paintings.flatMap((painting) => [
    `/${painting.id}`,
    ...painting.images.map((image) => `/${painting.id}/image/${image.id}`),
    // The viewer's own 'Image not found' screen, served for unknown image ids of a known painting.
    `/${painting.id}/image${NOT_FOUND_PATH}`,
  ]);
  // The same screen for an image of a painting that does not exist; the server answers it for `/{unknown}/image/{any}`.
  return [...STATIC_PUBLIC_PATHS, ...paintingPaths, `/__any/image${NOT_FOUND_PATH}`, NOT_FOUND_PATH];
}
