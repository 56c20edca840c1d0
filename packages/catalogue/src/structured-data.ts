import { artistProfile } from "./content.ts";
import { isPaintingSold } from "./paintings.ts";
import { PRODUCTION_YEAR, type Painting } from "./types.ts";

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";

function toAbsoluteUrl(pathOrUrl: string, siteOrigin: string): string {
  return new URL(pathOrUrl, siteOrigin).href;
}

function parseSizeCm(sizeCm: string): { widthCm: number; heightCm: number } | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)$/i.exec(sizeCm.trim());
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { widthCm: Number(match[1]), heightCm: Number(match[2]) };
}

function createCentimetreValue(value: number) {
  return { "@type": "QuantitativeValue", value, unitCode: "CMT", unitText: "cm" };
}

function createPaintingNode(painting: Painting, siteOrigin: string) {
  const paintingUrl = toAbsoluteUrl(`/${painting.id}`, siteOrigin);
  const size = parseSizeCm(painting.sizeCm);
  return {
    "@type": ["Product", "VisualArtwork"],
    "@id": paintingUrl,
    name: painting.title,
    description: painting.description,
    url: paintingUrl,
    image: painting.images.map((image) => toAbsoluteUrl(image.full, siteOrigin)),
    artform: "Painting",
    artMedium: painting.medium,
    ...(size === undefined ? {} : { width: createCentimetreValue(size.widthCm), height: createCentimetreValue(size.heightCm) }),
    dateCreated: String(PRODUCTION_YEAR),
    creator: { "@type": "Person", name: artistProfile.name },
    offers: {
      "@type": "Offer",
      price: painting.priceCHF,
      priceCurrency: "CHF",
      availability: isPaintingSold(painting) ? OUT_OF_STOCK : IN_STOCK,
      url: paintingUrl,
    },
  };
}

/**
 * JSON-LD for a painting detail page: a Product and VisualArtwork with its Offer in CHF.
 *
 * @example
 * const jsonLd = JSON.stringify(createPaintingStructuredData(painting, "https://atelier.example"));
 */
export function createPaintingStructuredData(painting: Painting, siteOrigin: string): object {
  return { "@context": "https://schema.org", ...createPaintingNode(painting, siteOrigin) };
}

/**
 * JSON-LD for the /paintings catalogue: an ItemList whose items are the paintings with their Offers.
 *
 * @example
 * const jsonLd = JSON.stringify(createItemListStructuredData(paintings, "https://atelier.example"));
 */
export function createItemListStructuredData(paintings: readonly Painting[], siteOrigin: string): object {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    numberOfItems: paintings.length,
    itemListElement: paintings.map((painting, index) => ({
      "@type": "ListItem",
      position: index + 1,
      item: createPaintingNode(painting, siteOrigin),
    })),
  };
}
