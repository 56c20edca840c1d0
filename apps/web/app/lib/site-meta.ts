import type { MetaDescriptor } from "react-router";
import { artistProfile, paintings } from "@atelier/catalogue";

/**
 * Stands for the public origin in the prerendered HTML; the server puts its PUBLIC_ORIGIN in its place when it serves
 * a page (apps/server `publicOriginPlaceholder`, the same string), so one build serves any host.
 */
export const PUBLIC_ORIGIN_PLACEHOLDER = "https://public-origin.atelier.invalid";

/**
 * Absolute URLs in social previews and structured data: the page's own origin in the browser, and at prerender time
 * `VITE_SITE_ORIGIN` when a build fixes it, else the placeholder the server replaces.
 */
export const SITE_ORIGIN =
  typeof window !== "undefined" ? window.location.origin : ((import.meta.env.VITE_SITE_ORIGIN as string | undefined)?.replace(/\/$/, "") ?? PUBLIC_ORIGIN_PLACEHOLDER);

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
