import { describe, expect, it } from "vitest";
import { createPageMeta } from "./site-meta.ts";

describe("createPageMeta", () => {
  it("should give every page a title, a description, social preview tags with an absolute image and a canonical link", () => {
    const tags = createPageMeta({ title: "Paintings", description: "All paintings", path: "/paintings" });
    const find = (key: string, value: string) => tags.find((tag) => (tag as Record<string, unknown>)[key] === value) as Record<string, string> | undefined;
    expect(tags.find((tag) => "title" in tag)).toMatchObject({ title: expect.stringContaining("Paintings") });
    expect(find("name", "description")?.content).toBe("All paintings");
    expect(find("property", "og:title")?.content).toContain("Paintings");
    expect(find("property", "og:image")?.content).toMatch(/^https?:\/\/.+\/images\/paintings\//);
    expect(find("name", "twitter:card")?.content).toBe("summary_large_image");
    expect(find("tagName", "link")?.href).toMatch(/\/paintings$/);
  });

  it("should add JSON-LD when structured data is given", () => {
    const tags = createPageMeta({ title: "X", description: "Y", path: "/", structuredData: { "@type": "ItemList" } });
    expect(tags).toContainEqual({ "script:ld+json": { "@type": "ItemList" } });
  });
});
