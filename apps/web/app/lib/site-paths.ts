/**
 * The full-screen viewer's paths, `/{paintingId}/image/{imageId}`, hide the header and footer (spec 2.1). Exactly the
 * viewer routes' shape: a deeper path is the site's not-found page, with its header, on the server and in the browser.
 */
export function isFullScreenImagePath(pathname: string): boolean {
  return /^\/[^/]+\/image\/[^/]+\/?$/.test(pathname);
}

export const primaryNavigationLinks = [
  { to: "/paintings", label: "Paintings" },
  { to: "/about", label: "Bio" },
  { to: "/events", label: "Events" },
  { to: "/expositions", label: "Expositions" },
  { to: "/contact", label: "Contact" },
] as const;

/** The spec's three links, then the study tool (issue 13: nothing else leads to it; decision 0005). */
export const footerLinks = [
  { to: "/about", label: "Bio" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/contact", label: "Contact" },
  { to: "/upload-subtitles", label: "Learn Swedish" },
] as const;
