import { describe, expect, it } from "vitest";
import { SOLD, findPaintingById, findPaintingImage, isPaintingSold, paintings } from "./index.ts";

const specTable = [
  { id: "the-friendship-of-david-and-jonathan", title: "The Friendship of David and Jonathan", sizeCm: "100x100", medium: "acrylic on canvas", priceCHF: 2750, sold: false },
  { id: "the-face-i-dont-show", title: "The Face I Don't Show", sizeCm: "80x116", medium: "acrylic on canvas", priceCHF: 3850, sold: true },
  { id: "the-price-of-light", title: "The Price Of Light", sizeCm: "80x120", medium: "acrylic on canvas", priceCHF: 3450, sold: false },
  { id: "bridge-to-freedom", title: "Bridge to Freedom", sizeCm: "150x100", medium: "mixed media", priceCHF: 4160, sold: false },
  { id: "you-were-there", title: "You Were There", sizeCm: "100x100", medium: "acrylic on canvas", priceCHF: 3250, sold: false },
  { id: "the-brothers-of-ursa-major", title: "The Brothers of Ursa Major", sizeCm: "100x100", medium: "acrylic on canvas", priceCHF: 2750, sold: false },
  { id: "janus-unmasked", title: "Janus Unmasked", sizeCm: "100x100", medium: "acrylic on canvas", priceCHF: 3250, sold: false },
  { id: "footprints-in-the-sand", title: "Footprints in the Sand", sizeCm: "100x150", medium: "mixed media", priceCHF: 4160, sold: false },
];

const specDetailRoutes = [
  "/footprints-in-the-sand",
  "/the-friendship-of-david-and-jonathan",
  "/bridge-to-freedom",
  "/the-face-i-dont-show",
  "/you-were-there",
  "/janus-unmasked",
  "/the-price-of-light",
  "/the-brothers-of-ursa-major",
];

describe("given the catalogue of paintings", () => {
  it("should list all eight paintings of the spec table, in table order, with its sizes, media, prices and sold state", () => {
    expect(paintings.map((painting) => ({ id: painting.id, title: painting.title, sizeCm: painting.sizeCm, medium: painting.medium, priceCHF: painting.priceCHF, sold: isPaintingSold(painting) }))).toEqual(specTable);
  });

  it("should use exactly the spec's detail routes as painting ids", () => {
    expect(paintings.map((painting) => `/${painting.id}`).sort()).toEqual([...specDetailRoutes].sort());
  });

  it("should fill every field of every painting", () => {
    for (const painting of paintings) {
      expect(painting.title.length).toBeGreaterThan(0);
      expect(painting.description.length).toBeGreaterThan(20);
      expect(painting.stripeUrl.length).toBeGreaterThan(0);
      expect(painting.images.length).toBeGreaterThan(0);
    }
  });

  it("should mark only The Face I Don't Show as sold, with the SOLD value", () => {
    expect(paintings.filter((painting) => painting.stripeUrl === SOLD).map((painting) => painting.id)).toEqual(["the-face-i-dont-show"]);
  });

  it("should give every available painting an https purchase link of a hosted payment page", () => {
    for (const painting of paintings.filter((candidate) => !isPaintingSold(candidate))) {
      expect(painting.stripeUrl).toMatch(/^https:\/\/buy\.stripe\.com\//);
    }
  });

  it("should give The Brothers of Ursa Major exactly one image and the others two or three", () => {
    for (const painting of paintings) {
      if (painting.id === "the-brothers-of-ursa-major") expect(painting.images).toHaveLength(1);
      else expect(painting.images.length).toBeGreaterThanOrEqual(2);
      expect(painting.images.length).toBeLessThanOrEqual(3);
    }
  });

  it("should number images 1, 2, 3 and describe each in its alt text starting with the title", () => {
    for (const painting of paintings) {
      expect(painting.images.map((image) => image.id)).toEqual(painting.images.map((_, index) => String(index + 1)));
      expect(painting.images[0]?.alt).toBe(`${painting.title}, full view`);
      for (const image of painting.images) expect(image.alt.startsWith(`${painting.title}, `)).toBe(true);
    }
  });

  it("should point thumb at the 640-wide JPEG and full at the largest JPEG under /images/paintings/", () => {
    const image = findPaintingImage("bridge-to-freedom", "1")?.image;
    expect(image?.thumb).toMatch(/^\/images\/paintings\/bridge-to-freedom--1-640-[0-9a-f]{8}\.jpg$/);
    expect(image?.full).toMatch(/^\/images\/paintings\/bridge-to-freedom--1-1600-[0-9a-f]{8}\.jpg$/);
  });

  it("should give each image the original's size and srcsets for AVIF, WebP and JPEG", () => {
    const image = findPaintingImage("footprints-in-the-sand", "1")?.image;
    expect(image?.height).toBe(1600);
    expect(image?.width).toBe(1067);
    expect(image?.sources.width).toBe(image?.width);
    expect(image?.sources.height).toBe(image?.height);
    expect(image?.sources.avifSrcSet).toMatch(/^\/images\/paintings\/footprints-in-the-sand--1-320-[0-9a-f]{8}\.avif 320w, /);
    expect(image?.sources.webpSrcSet).toContain(".webp 1067w");
    expect(image?.sources.jpegSrcSet).toContain(".jpg 640w");
    expect(image?.sources.fallbackSrc).toMatch(/-960-[0-9a-f]{8}\.jpg$/);
  });
});

describe("given a painting id from a route", () => {
  it("should find a known painting", () => {
    expect(findPaintingById("janus-unmasked")?.title).toBe("Janus Unmasked");
  });

  it("should return undefined for an unknown painting", () => {
    expect(findPaintingById("not-a-painting")).toBeUndefined();
  });

  it("should find an image with its index for the viewer", () => {
    const found = findPaintingImage("the-face-i-dont-show", "3");
    expect(found?.painting.id).toBe("the-face-i-dont-show");
    expect(found?.image.alt).toBe("The Face I Don't Show, close-up of the brushwork");
    expect(found?.imageIndex).toBe(2);
  });

  it("should return undefined for an unknown image of a known painting, so the viewer shows 'Image not found'", () => {
    expect(findPaintingImage("the-brothers-of-ursa-major", "2")).toBeUndefined();
    expect(findPaintingImage("nothing-here", "1")).toBeUndefined();
  });
});
