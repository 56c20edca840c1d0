import { findPaintingById, type Painting } from "@atelier/catalogue";

/** Each painting has a route of its own (see routes.ts), so its id is the first path segment. */
export function findPaintingForPath(pathname: string): Painting | undefined {
  const firstSegment = pathname.split("/").filter(Boolean)[0];
  return firstSegment ? findPaintingById(decodeURIComponent(firstSegment)) : undefined;
}
