/** Any page whose path contains /image/ is the full-screen viewer and hides the header and footer (spec 2.1). */
export function isFullScreenImagePath(pathname: string): boolean {
  return pathname.includes("/image/");
}

export const primaryNavigationLinks = [
  { to: "/paintings", label: "Paintings" },
  { to: "/about", label: "Bio" },
  { to: "/events", label: "Events" },
  { to: "/expositions", label: "Expositions" },
  { to: "/contact", label: "Contact" },
] as const;

export const footerLinks = [
  { to: "/about", label: "Bio" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/contact", label: "Contact" },
] as const;
