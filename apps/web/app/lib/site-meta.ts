import type { MetaDescriptor } from "react-router";
import { artistProfile, paintings } from "@atelier/catalogue";

/** Absolute URLs in social previews need the public origin, fixed when the site is built. */
export const SITE_ORIGIN = (import.meta.env.VITE_SITE_ORIGIN as string | undefined)?.replace(/\/$/, "") ?? "http://localhost:3000";

export const SITE_NAME = artistProfile.studioName;

/** Pages without a picture of their own are previewed with the first painting. */
const DEFAULT_SOCIAL_IMAGE = { path: paintings[0]?.images[0]?.full ?? "/favicon.svg", alt: paintings[0]?.images[0]?.alt ?? SITE_NAME };

export function absoluteUrl(path: string): string {
  return new URL(path, `${SITE_ORIGIN}/`).toString();
}

export interface PageMetaInput {
  title: string;
  description: string;
  path: string;
  imagePath?: string;
  imageAlt?: string;
  structuredData?: object;
}

/**
 * Title, description, canonical link, Open Graph and Twitter card tags, and JSON-LD for one page.
 *
 * @example
 * export const meta = () => createPageMeta({ title: "Paintings", description: "…", path: "/paintings" });
 */
export function createPageMeta({ title, description, path, imagePath = DEFAULT_SOCIAL_IMAGE.path, imageAlt = DEFAULT_SOCIAL_IMAGE.alt, structuredData }: PageMetaInput): MetaDescriptor[] {
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const url = absoluteUrl(path);
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: "website" },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
  ];
  const imageUrl = absoluteUrl(imagePath);
  tags.push(
    { property: "og:image", content: imageUrl },
    { property: "og:image:alt", content: imageAlt },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: imageAlt },
  );
  if (structuredData) tags.push({ "script:ld+json": structuredData });
  return tags;
}
