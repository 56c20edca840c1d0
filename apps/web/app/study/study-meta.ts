import { SITE_NAME } from "../lib/site-meta.ts";

/** Study pages are client-only and personal: a title, and no indexing. */
export function studyPageMeta(title: string) {
  return () => [{ title: `${title} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
}

/** A learner at the anonymous limit is asked to sign in with this dialog (spec §2.13, §6). */
export const ANONYMOUS_LIMIT_DIALOG = {
  title: "Keep Up the Great Work!",
  description: "You have memorized 5 cards. Log in or sign up to save your progress and keep studying without limits; nothing you have learned so far will be lost.",
} as const;
