/**
 * The value of `Painting.stripeUrl` for a painting that has been sold.
 *
 * @example
 * { ...painting, stripeUrl: SOLD }
 */
export const SOLD = "SOLD" as const;

/**
 * Year the paintings were produced, written into every painting's structured data (spec 2.4, 9).
 *
 * @example
 * String(PRODUCTION_YEAR); // "2025", the structured data's dateCreated
 */
export const PRODUCTION_YEAR = 2025;

/**
 * Year of the footer's copyright line (spec 2.1, 9).
 *
 * @example
 * `© ${COPYRIGHT_YEAR} ${artistProfile.name}`;
 */
export const COPYRIGHT_YEAR = 2025;

/** Every file of one photograph, ready for `<picture>`: one `srcset` per format and a JPEG fallback. */
export interface ResponsiveImageSources {
  avifSrcSet: string;
  webpSrcSet: string;
  jpegSrcSet: string;
  fallbackSrc: string;
  /** Width of the original photograph in pixels. */
  width: number;
  /** Height of the original photograph in pixels. */
  height: number;
}

/** One photograph of a painting; `thumb` and `full` are site-relative JPEG URLs. */
export interface PaintingImage {
  id: string;
  alt: string;
  thumb: string;
  full: string;
  width: number;
  height: number;
  sources: ResponsiveImageSources;
}

/** A painting of the catalogue (spec 3). `stripeUrl` is the external purchase URL, or `SOLD`. */
export interface Painting {
  id: string;
  title: string;
  sizeCm: string;
  medium: string;
  priceCHF: number;
  stripeUrl: string;
  description: string;
  images: PaintingImage[];
}

/** A painting as the painter writes it in `content.ts`: images are only ids and alt texts. */
export interface PaintingContent extends Omit<Painting, "images"> {
  images: { id: string; alt: string }[];
}

/** A painting shown on the gallery landing page; three of the four carry a size and a blurb (spec 1). */
export interface LandingPainting {
  paintingId: string;
  /** For example "150x100 cm". */
  sizeLabel?: string;
  blurb?: string;
}

/** One card of the expositions page (spec 2.6). */
export interface Exposition {
  /** A year ("2015") or a range with an en dash ("1984–1989"). */
  year: string;
  title?: string;
  venues: string[];
  /** Shown as an italic prize line. */
  prize?: string;
  image?: { src: string; alt: string; width: number; height: number };
}

export interface Biography {
  heading: string;
  paragraphs: string[];
}

export interface SocialLink {
  network: string;
  label: string;
  url: string;
}

export interface ArtistProfile {
  name: string;
  studioName: string;
  phone: string;
  email: string;
  address: { street: string; postalCode: string; locality: string; country: string };
  /** Spec 2.8: "Monday to Saturday, 12:00 to 17:00, or by appointment". */
  galleryHours: string;
  socialLinks: SocialLink[];
  /** The social page whose timeline and events tabs the events page embeds (spec 2.7). */
  eventsPageUrl: string;
  map: { latitude: number; longitude: number; embedUrl: string; linkUrl: string };
}
