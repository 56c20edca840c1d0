import { describe, expect, it } from "vitest";
import { createItemListStructuredData, createPaintingStructuredData, findPaintingById, paintings } from "./index.ts";

const SITE_ORIGIN = "https://atelier.example";

function requirePainting(id: string) {
  const painting = findPaintingById(id);
  if (painting === undefined) throw new Error(`test fixture: painting '${id}' is missing`);
  return painting;
}

describe("given the structured data of one painting", () => {
  const data = createPaintingStructuredData(requirePainting("footprints-in-the-sand"), SITE_ORIGIN) as Record<string, unknown>;

  it("should describe a Product and a VisualArtwork in the schema.org context", () => {
    expect(data["@context"]).toBe("https://schema.org");
    expect(data["@type"]).toEqual(["Product", "VisualArtwork"]);
    expect(data.name).toBe("Footprints in the Sand");
    expect(data.artMedium).toBe("mixed media");
    expect(data.artform).toBe("Painting");
  });

  it("should carry production year 2025 and the artist as creator", () => {
    expect(data.dateCreated).toBe("2025");
    expect(data.creator).toMatchObject({ "@type": "Person" });
  });

  it("should take width and height in centimetres from sizeCm", () => {
    expect(data.width).toMatchObject({ value: 100, unitCode: "CMT" });
    expect(data.height).toMatchObject({ value: 150, unitCode: "CMT" });
  });

  it("should use absolute URLs for the page and every image", () => {
    expect(data.url).toBe("https://atelier.example/footprints-in-the-sand");
    expect(data.image).toHaveLength(3);
    for (const imageUrl of data.image as string[]) expect(imageUrl).toMatch(/^https:\/\/atelier\.example\/images\/paintings\/footprints-in-the-sand--\d-1067-[0-9a-f]{8}\.jpg$/);
  });

  it("should offer an available painting in stock, in CHF", () => {
    expect(data.offers).toEqual({
      "@type": "Offer",
      price: 4160,
      priceCurrency: "CHF",
      availability: "https://schema.org/InStock",
      url: "https://atelier.example/footprints-in-the-sand",
    });
  });

  it("should mark the sold painting out of stock", () => {
    const soldData = createPaintingStructuredData(requirePainting("the-face-i-dont-show"), SITE_ORIGIN) as { offers: { availability: string; price: number } };
    expect(soldData.offers.availability).toBe("https://schema.org/OutOfStock");
    expect(soldData.offers.price).toBe(3850);
  });

  it("should accept an origin with a trailing slash", () => {
    const withSlash = createPaintingStructuredData(requirePainting("janus-unmasked"), "https://atelier.example/") as { url: string };
    expect(withSlash.url).toBe("https://atelier.example/janus-unmasked");
  });
});

describe("given the structured data of the catalogue", () => {
  const data = createItemListStructuredData(paintings, SITE_ORIGIN) as {
    "@type": string;
    itemListElement: { position: number; item: { name: string; offers: { priceCurrency: string; availability: string; url: string } } }[];
  };

  it("should list every painting in order as an ItemList", () => {
    expect(data["@type"]).toBe("ItemList");
    expect(data.itemListElement.map((element) => element.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(data.itemListElement.map((element) => element.item.name)).toEqual(paintings.map((painting) => painting.title));
  });

  it("should price every offer in CHF with a URL, and only the sold painting out of stock", () => {
    for (const element of data.itemListElement) {
      expect(element.item.offers.priceCurrency).toBe("CHF");
      expect(element.item.offers.url).toMatch(/^https:\/\/atelier\.example\//);
    }
    const outOfStock = data.itemListElement.filter((element) => element.item.offers.availability === "https://schema.org/OutOfStock");
    expect(outOfStock.map((element) => element.item.name)).toEqual(["The Face I Don't Show"]);
  });
});
