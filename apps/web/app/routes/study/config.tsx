import { StudySetupPage } from "../../study/StudySetupPage.tsx";
import { studyPageMeta } from "../../study/study-meta.ts";
import type { Route } from "./+types/config";

export const meta = studyPageMeta("Study setup");

export default function StudyConfigRoute({ params }: Route.ComponentProps) {
  // A new group starts a fresh setup rather than keeping the previous group's choices.
  return <StudySetupPage key={params.groupId} groupId={params.groupId} />;
}
