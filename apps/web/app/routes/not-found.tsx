import { Link } from "react-router";
import { createPageMeta } from "../lib/site-meta.ts";

export const meta = () => [
  ...createPageMeta({ title: "Page not found", description: "This page does not exist.", path: "/" }).filter(
    (tag) => !("tagName" in tag && tag.tagName === "link"),
  ),
  { name: "robots", content: "noindex" },
];

export default function NotFoundPage() {
  return (
    <section className="page page--narrow">
      <h1>Page not found</h1>
      <p>The page you asked for does not exist. It may have moved, or the address may be mistyped.</p>
      <p>
        <Link to="/">Go to the home page</Link> or <Link to="/paintings">see all paintings</Link>.
      </p>
    </section>
  );
}
