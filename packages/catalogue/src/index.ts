export { SOLD, PRODUCTION_YEAR, COPYRIGHT_YEAR } from "./types.ts";
export type {
  ArtistProfile,
  Biography,
  Exposition,
  LandingPainting,
  Painting,
  PaintingImage,
  ResponsiveImageSources,
  SocialLink,
} from "./types.ts";
export { paintings, findPaintingById, findPaintingImage, isPaintingSold } from "./paintings.ts";
export {
  landingPaintings,
  expositions,
  biography,
  artistProfile,
  serviceNotes,
  catalogueFooterNotes,
} from "./content.ts";
export { formatPriceCHF } from "./format-price.ts";
export { createItemListStructuredData, createPaintingStructuredData } from "./structured-data.ts";
