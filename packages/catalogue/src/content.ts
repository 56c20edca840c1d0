// The one file the painter edits for text. Photographs go into `images/` as `{paintingId}--{imageId}.jpg`.
// Lines marked PLACEHOLDER were written before the painter's own text existed (docs/decisions/0003):
// replace them, keeping the quotes and commas.
import { SOLD } from "./types.ts";
import type { ArtistProfile, Biography, Exposition, LandingPainting, PaintingContent } from "./types.ts";

/** The paintings, in the order of the catalogue. `stripeUrl` is the payment link, or SOLD once sold. */
export const paintingContents: readonly PaintingContent[] = [
  {
    id: "the-friendship-of-david-and-jonathan",
    title: "The Friendship of David and Jonathan",
    sizeCm: "100x100",
    medium: "acrylic on canvas",
    priceCHF: 2750,
    stripeUrl: "https://buy.stripe.com/test_placeholder_the_friendship_of_david_and_jonathan", // PLACEHOLDER payment link
    description: "Two figures held in one square field, painted about a loyalty that costs each of them something.", // PLACEHOLDER
    images: [
      { id: "1", alt: "The Friendship of David and Jonathan, full view" },
      { id: "2", alt: "The Friendship of David and Jonathan, detail" },
    ],
  },
  {
    id: "the-face-i-dont-show",
    title: "The Face I Don't Show",
    sizeCm: "80x116",
    medium: "acrylic on canvas",
    priceCHF: 3850,
    stripeUrl: SOLD,
    description: "A tall portrait of the self we keep from others, built up in layers that half cover one another.", // PLACEHOLDER
    images: [
      { id: "1", alt: "The Face I Don't Show, full view" },
      { id: "2", alt: "The Face I Don't Show, detail" },
      { id: "3", alt: "The Face I Don't Show, close-up of the brushwork" },
    ],
  },
  {
    id: "the-price-of-light",
    title: "The Price Of Light",
    sizeCm: "80x120",
    medium: "acrylic on canvas",
    priceCHF: 3450,
    stripeUrl: "https://buy.stripe.com/test_placeholder_the_price_of_light", // PLACEHOLDER payment link
    description: "Light breaking through a dark ground, and what it takes for it to get there.", // PLACEHOLDER
    images: [
      { id: "1", alt: "The Price Of Light, full view" },
      { id: "2", alt: "The Price Of Light, detail" },
    ],
  },
  {
    id: "bridge-to-freedom",
    title: "Bridge to Freedom",
    sizeCm: "150x100",
    medium: "mixed media",
    priceCHF: 4160,
    stripeUrl: "https://buy.stripe.com/test_placeholder_bridge_to_freedom", // PLACEHOLDER payment link
    description: "A wide canvas in mixed media: a crossing from one shore to the other, seen from the middle of the span.", // PLACEHOLDER
    images: [
      { id: "1", alt: "Bridge to Freedom, full view" },
      { id: "2", alt: "Bridge to Freedom, detail" },
      { id: "3", alt: "Bridge to Freedom, close-up of the brushwork" },
    ],
  },
  {
    id: "you-were-there",
    title: "You Were There",
    sizeCm: "100x100",
    medium: "acrylic on canvas",
    priceCHF: 3250,
    stripeUrl: "https://buy.stripe.com/test_placeholder_you_were_there", // PLACEHOLDER payment link
    description: "A square canvas about a presence that stays with us when we look back.", // PLACEHOLDER
    images: [
      { id: "1", alt: "You Were There, full view" },
      { id: "2", alt: "You Were There, detail" },
    ],
  },
  {
    id: "the-brothers-of-ursa-major",
    title: "The Brothers of Ursa Major",
    sizeCm: "100x100",
    medium: "acrylic on canvas",
    priceCHF: 2750,
    stripeUrl: "https://buy.stripe.com/test_placeholder_the_brothers_of_ursa_major", // PLACEHOLDER payment link
    description: "The stars of the Great Bear as a family, each one keeping its distance and its place.", // PLACEHOLDER
    images: [{ id: "1", alt: "The Brothers of Ursa Major, full view" }],
  },
  {
    id: "janus-unmasked",
    title: "Janus Unmasked",
    sizeCm: "100x100",
    medium: "acrylic on canvas",
    priceCHF: 3250,
    stripeUrl: "https://buy.stripe.com/test_placeholder_janus_unmasked", // PLACEHOLDER payment link
    description: "The two-faced god of doorways, with both faces turned towards the viewer at once.", // PLACEHOLDER
    images: [
      { id: "1", alt: "Janus Unmasked, full view" },
      { id: "2", alt: "Janus Unmasked, detail" },
    ],
  },
  {
    id: "footprints-in-the-sand",
    title: "Footprints in the Sand",
    sizeCm: "100x150",
    medium: "mixed media",
    priceCHF: 4160,
    stripeUrl: "https://buy.stripe.com/test_placeholder_footprints_in_the_sand", // PLACEHOLDER payment link
    description: "A tall canvas in mixed media, with sand worked into the paint, about the steps that carried us.", // PLACEHOLDER
    images: [
      { id: "1", alt: "Footprints in the Sand, full view" },
      { id: "2", alt: "Footprints in the Sand, detail" },
      { id: "3", alt: "Footprints in the Sand, close-up of the brushwork" },
    ],
  },
];

/**
 * The four paintings of the home page; the three with a size also carry a short blurb.
 *
 * @example
 * landingPaintings.map((landing) => findPaintingById(landing.paintingId));
 */
export const landingPaintings: readonly LandingPainting[] = [
  { paintingId: "bridge-to-freedom", sizeLabel: "150x100 cm", blurb: "A crossing painted from the middle of the bridge." }, // PLACEHOLDER blurb
  { paintingId: "footprints-in-the-sand", sizeLabel: "100x150 cm", blurb: "Sand in the paint, and the steps that carried us." }, // PLACEHOLDER blurb
  { paintingId: "the-face-i-dont-show", sizeLabel: "80x116 cm", blurb: "The self we keep from others, in layers." }, // PLACEHOLDER blurb
  { paintingId: "the-friendship-of-david-and-jonathan" },
];

/**
 * The expositions page, newest first. The venues from 2015 to 1992 are PLACEHOLDERS.
 *
 * @example
 * expositions.map((exposition) => `${exposition.year}: ${exposition.venues.join(", ")}`);
 */
export const expositions: readonly Exposition[] = [
  { year: "2015", venues: ["Solo exhibition, venue to be confirmed"] }, // PLACEHOLDER
  { year: "2010", venues: ["Group exhibition, venue to be confirmed"] }, // PLACEHOLDER
  { year: "2004", venues: ["Solo exhibition, venue to be confirmed"] }, // PLACEHOLDER
  { year: "1998", venues: ["Group exhibition, venue to be confirmed"] }, // PLACEHOLDER
  { year: "1992", venues: ["Solo exhibition, venue to be confirmed"] }, // PLACEHOLDER
  { year: "1991", title: "Sion", venues: ["An exhibition in Sion", "A fresco of local personalities"] },
  { year: "1990", title: "Milan", venues: ["Milan"] },
  { year: "1984–1989", title: "Stockholm", venues: ["Portraits in Stockholm"] },
  { year: "1975–1982", title: "Nigeria", venues: ["Portraits and landscapes in Nigeria"] },
  {
    year: "1967",
    title: "Donetsk",
    venues: ["A young artists' competition in Donetsk"],
    prize: "First prize for a portrait",
  },
];

/**
 * The Bio page. PLACEHOLDER text built only from the facts of the expositions list.
 *
 * @example
 * biography.paragraphs.forEach((paragraph) => console.info(paragraph));
 */
export const biography: Biography = {
  heading: "Biography",
  paragraphs: [
    "At a young artists' competition in Donetsk in 1967, the artist won first prize with a portrait.",
    "From 1975 to 1982 the artist painted portraits and landscapes in Nigeria, then portraits in Stockholm from 1984 to 1989, before exhibiting in Milan in 1990.",
    "In 1991 came an exhibition in Sion and a fresco of local personalities.",
    "Today the studio is in Clarens, on the shore of Lake Geneva, where the paintings of this site are made, signed and shipped.",
  ],
};

/**
 * Who the artist is and how to reach the studio. Every value except the town and gallery hours is a PLACEHOLDER.
 *
 * @example
 * `© ${COPYRIGHT_YEAR} ${artistProfile.name}`;
 */
export const artistProfile: ArtistProfile = {
  name: "Lena Morel", // PLACEHOLDER
  studioName: "Atelier Clarens", // PLACEHOLDER
  phone: "+41 21 000 00 00", // PLACEHOLDER, deliberately not a real number
  email: "studio@example.com", // PLACEHOLDER
  address: {
    street: "Chemin de l'Atelier 1", // PLACEHOLDER
    postalCode: "1815",
    locality: "Clarens",
    country: "Switzerland",
  },
  galleryHours: "Monday to Saturday, 12:00 to 17:00, or by appointment",
  socialLinks: [
    { network: "facebook", label: "Facebook", url: "https://www.facebook.com/atelier-clarens-placeholder" }, // PLACEHOLDER
    { network: "instagram", label: "Instagram", url: "https://www.instagram.com/atelier_clarens_placeholder" }, // PLACEHOLDER
  ],
  eventsPageUrl: "https://www.facebook.com/atelier-clarens-placeholder", // PLACEHOLDER
  // PLACEHOLDER: the centre of Clarens until the studio's own coordinates are known.
  map: {
    latitude: 46.4419,
    longitude: 6.892,
    embedUrl: "https://www.openstreetmap.org/export/embed.html?bbox=6.8870%2C46.4389%2C6.8970%2C46.4449&layer=mapnik&marker=46.4419%2C6.8920",
    linkUrl: "https://www.openstreetmap.org/?mlat=46.4419&mlon=6.8920#map=17/46.4419/6.8920",
  },
};

/**
 * The service notes of every painting detail page (spec 2.4).
 *
 * @example
 * serviceNotes.map((note) => `• ${note}`);
 */
export const serviceNotes: readonly string[] = [
  "Returns must be requested within 3 days of delivery.",
  "Shipping is from Clarens, Switzerland.",
  "In-store pickup at the workshop carries no fees.",
  "A certificate of authenticity is included.",
  "Customs duties and taxes may apply.",
];

/**
 * The notes on originals and shipping below the /paintings grid (spec 1, 2.3).
 *
 * @example
 * catalogueFooterNotes.join(" ");
 */
export const catalogueFooterNotes: readonly string[] = [
  "Every painting is a signed original.",
  "Each painting comes with a certificate of authenticity.",
  "Prices are in Swiss francs (CHF).",
  "Paintings ship worldwide from Clarens, Switzerland.",
];
