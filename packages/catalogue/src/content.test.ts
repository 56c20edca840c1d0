import { describe, expect, it } from "vitest";
import {
  COPYRIGHT_YEAR,
  PRODUCTION_YEAR,
  artistProfile,
  biography,
  catalogueFooterNotes,
  expositions,
  findPaintingById,
  isPaintingSold,
  landingPaintings,
  serviceNotes,
} from "./index.ts";

describe("given the landing page", () => {
  it("should show exactly four paintings that all exist in the catalogue", () => {
    expect(landingPaintings).toHaveLength(4);
    for (const landingPainting of landingPaintings) expect(findPaintingById(landingPainting.paintingId)).toBeDefined();
  });

  it("should give three of them the sizes 150x100, 100x150 and 80x116 cm and a short blurb", () => {
    const sized = landingPaintings.filter((landingPainting) => landingPainting.sizeLabel !== undefined);
    expect(sized.map((landingPainting) => landingPainting.sizeLabel)).toEqual(["150x100 cm", "100x150 cm", "80x116 cm"]);
    for (const landingPainting of sized) {
      expect(landingPainting.blurb?.length).toBeGreaterThan(0);
      expect(`${findPaintingById(landingPainting.paintingId)?.sizeCm} cm`).toBe(landingPainting.sizeLabel);
    }
  });

  it("should include the sold painting so the page shows 'SOLD!'", () => {
    const soldOnLanding = landingPaintings.filter((landingPainting) => {
      const painting = findPaintingById(landingPainting.paintingId);
      return painting !== undefined && isPaintingSold(painting);
    });
    expect(soldOnLanding.map((landingPainting) => landingPainting.paintingId)).toEqual(["the-face-i-dont-show"]);
  });
});

describe("given the expositions", () => {
  const firstYear = (year: string) => Number(year.slice(0, 4));

  it("should run from 2015 down to 1967, newest first", () => {
    expect(expositions[0]?.year).toBe("2015");
    expect(expositions.at(-1)?.year).toBe("1967");
    const startYears = expositions.map((exposition) => firstYear(exposition.year));
    expect(startYears).toEqual([...startYears].sort((left, right) => right - left));
  });

  it("should write year ranges with an en dash", () => {
    expect(expositions.map((exposition) => exposition.year)).toContain("1984–1989");
    expect(expositions.map((exposition) => exposition.year)).toContain("1975–1982");
  });

  it("should give every card at least one venue", () => {
    for (const exposition of expositions) expect(exposition.venues.length).toBeGreaterThan(0);
  });

  it("should include the spec's facts from 1991 back to 1967", () => {
    const venuesOf = (year: string) => expositions.find((exposition) => exposition.year === year)?.venues.join(" ");
    expect(venuesOf("1991")).toContain("Sion");
    expect(venuesOf("1991")).toContain("fresco of local personalities");
    expect(venuesOf("1990")).toContain("Milan");
    expect(venuesOf("1984–1989")).toBe("Portraits in Stockholm");
    expect(venuesOf("1975–1982")).toBe("Portraits and landscapes in Nigeria");
    expect(venuesOf("1967")).toContain("young artists' competition in Donetsk");
    expect(expositions.find((exposition) => exposition.year === "1967")?.prize).toBe("First prize for a portrait");
  });
});

describe("given the artist's profile", () => {
  it("should place the studio in 1815 Clarens, Switzerland", () => {
    expect(artistProfile.address).toMatchObject({ postalCode: "1815", locality: "Clarens", country: "Switzerland" });
  });

  it("should quote the gallery hours of the spec", () => {
    expect(artistProfile.galleryHours).toBe("Monday to Saturday, 12:00 to 17:00, or by appointment");
  });

  it("should use a fictional Swiss phone number until the painter gives the real one", () => {
    expect(artistProfile.phone).toBe("+41 21 000 00 00");
  });

  it("should embed an OpenStreetMap map centred on the studio's coordinates", () => {
    expect(artistProfile.map.embedUrl).toMatch(/^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?/);
    expect(artistProfile.map.embedUrl).toContain(`marker=${artistProfile.map.latitude}`);
    expect(artistProfile.map.linkUrl).toContain(`mlat=${artistProfile.map.latitude}`);
  });

  it("should name the events page among its https social links", () => {
    expect(artistProfile.socialLinks.map((link) => link.url)).toContain(artistProfile.eventsPageUrl);
    for (const link of artistProfile.socialLinks) expect(link.url).toMatch(/^https:\/\//);
  });

  it("should have a biography with a heading and paragraphs", () => {
    expect(biography.heading).toBe("Biography");
    expect(biography.paragraphs.length).toBeGreaterThan(0);
  });
});

describe("given the notes of the detail and catalogue pages", () => {
  it("should list the five service notes of spec 2.4", () => {
    expect(serviceNotes).toEqual([
      "Returns must be requested within 3 days of delivery.",
      "Shipping is from Clarens, Switzerland.",
      "In-store pickup at the workshop carries no fees.",
      "A certificate of authenticity is included.",
      "Customs duties and taxes may apply.",
    ]);
  });

  it("should say that paintings are signed originals with a certificate, shipped worldwide from Clarens", () => {
    const footer = catalogueFooterNotes.join(" ");
    expect(footer).toContain("signed original");
    expect(footer).toContain("certificate of authenticity");
    expect(footer).toContain("Paintings ship worldwide from Clarens, Switzerland.");
  });

  it("should use 2025 as production and copyright year", () => {
    expect(PRODUCTION_YEAR).toBe(2025);
    expect(COPYRIGHT_YEAR).toBe(2025);
  });
});
