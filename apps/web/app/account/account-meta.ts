import { SITE_NAME } from "../lib/site-meta.ts";

/** Account screens are private: a title, and no indexing. */
export function accountPageMeta(title: string) {
  return () => [{ title: `${title} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
}
