import { describe, expect, it } from "vitest";
import { listPrerenderedPaths } from "./prerendered-paths.ts";

describe("listPrerenderedPaths", () => {
  it("should prerender every public page, each painting, each image and the not-found pages", () => {
    const paths = listPrerenderedPaths();
    for (const path of ["/", "/paintings", "/about", "/events", "/expositions", "/contact", "/privacy-policy", "/Licence", "/__not-found", "/__any/image/__not-found"]) {
      expect(paths).toContain(path);
    }
    for (const slug of [
      "footprints-in-the-sand",
      "the-friendship-of-david-and-jonathan",
      "bridge-to-freedom",
      "the-face-i-dont-show",
      "you-were-there",
      "janus-unmasked",
      "the-price-of-light",
      "the-brothers-of-ursa-major",
    ]) {
      expect(paths).toContain(`/${slug}`);
      expect(paths).toContain(`/${slug}/image/1`);
      expect(paths).toContain(`/${slug}/image/__not-found`);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });
});
