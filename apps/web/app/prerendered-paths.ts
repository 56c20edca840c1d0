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
  return [...STATIC_PUBLIC_PATHS, ...paintingPaths, NOT_FOUND_PATH];
}
