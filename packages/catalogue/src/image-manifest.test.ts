import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { paintingContents } from "./content.ts";
import { createImageKey, parseImageManifest } from "./image-sources.ts";

const distDirectory = fileURLToPath(new URL("../dist/", import.meta.url));
const manifest = parseImageManifest(JSON.parse(readFileSync(`${distDirectory}image-manifest.json`, "utf8")));
const contentImageKeys = paintingContents.flatMap((painting) => painting.images.map((image) => createImageKey(painting.id, image.id)));

describe("given the built image manifest", () => {
  it("should cover every image of content.ts and nothing else", () => {
    expect(Object.keys(manifest).sort()).toEqual([...contentImageKeys].sort());
  });

  it("should have AVIF, WebP and JPEG at the same widths, none wider than the original", () => {
    for (const [imageKey, entry] of Object.entries(manifest)) {
      const widthsOf = (format: string) => entry.variants.filter((variant) => variant.format === format).map((variant) => variant.width);
      expect(widthsOf("avif"), imageKey).toEqual(widthsOf("jpeg"));
      expect(widthsOf("webp"), imageKey).toEqual(widthsOf("jpeg"));
      expect(widthsOf("jpeg").length, imageKey).toBeGreaterThan(0);
      for (const width of widthsOf("jpeg")) expect(width, imageKey).toBeLessThanOrEqual(entry.width);
      expect(Math.max(...widthsOf("jpeg")), imageKey).toBe(Math.min(entry.width, 1600));
    }
  });

  it("should name every file with its image key, width and an eight-character hash, and have it on disk", () => {
    for (const [imageKey, entry] of Object.entries(manifest)) {
      for (const variant of entry.variants) {
        const extension = variant.format === "jpeg" ? "jpg" : variant.format;
        expect(variant.fileName).toMatch(new RegExp(`^${imageKey}-${variant.width}-[0-9a-f]{8}\\.${extension}$`));
        expect(existsSync(`${distDirectory}images/${variant.fileName}`), variant.fileName).toBe(true);
      }
    }
  });
});

describe("given a malformed manifest", () => {
  it("should refuse it with a sentence that says to rebuild", () => {
    expect(() => parseImageManifest({ "bridge-to-freedom--1": { width: 10 } })).toThrow(/malformed entry 'bridge-to-freedom--1'.*build/);
    expect(() => parseImageManifest([])).toThrow(/not an object/);
  });
});
