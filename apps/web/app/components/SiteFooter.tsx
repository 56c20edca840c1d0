import { Link } from "react-router";
import { artistProfile, COPYRIGHT_YEAR } from "@atelier/catalogue";
import { footerLinks } from "../lib/site-paths.ts";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p className="site-footer__copyright">
        © {COPYRIGHT_YEAR} {artistProfile.name}. All rights reserved.
      </p>
      <nav aria-label="Footer">
        <ul className="site-footer__links">
          {footerLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
