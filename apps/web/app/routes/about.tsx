import { Link } from "react-router";
import { artistProfile, biography } from "@atelier/catalogue";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Bio",
    description: biography.paragraphs[0]?.slice(0, 200) ?? `The biography of ${artistProfile.name}.`,
    path: "/about",
  });

export default function AboutPage() {
  return (
    <article className="page page--narrow prose">
      <h1>{biography.heading}</h1>
      {biography.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <p>
        See the <Link to="/expositions">expositions</Link> since 1967, or <Link to="/contact">visit the studio</Link>.
      </p>
    </article>
  );
}
