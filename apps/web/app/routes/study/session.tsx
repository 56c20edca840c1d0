import { FlashcardSessionPage } from "../../study/FlashcardSessionPage.tsx";
import { studyPageMeta } from "../../study/study-meta.ts";
import type { Route } from "./+types/session";

export const meta = studyPageMeta("Flashcards");

export default function StudySessionRoute({ params }: Route.ComponentProps) {
  return <FlashcardSessionPage key={params.groupId} groupId={params.groupId} />;
}
