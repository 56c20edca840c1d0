import { useRevalidator } from "react-router";
import { FlashcardSessionLoading, FlashcardSessionPage, loadFlashcardSession } from "../../study/FlashcardSessionPage.tsx";
import { studyClient } from "../../study/study-client.ts";
import { studyPageMeta } from "../../study/study-meta.ts";
import type { Route } from "./+types/session";

export const meta = studyPageMeta("Flashcards");

export function clientLoader({ params }: Route.ClientLoaderArgs) {
  return loadFlashcardSession(studyClient, params.groupId);
}

export function HydrateFallback() {
  return <FlashcardSessionLoading />;
}

export default function StudySessionRoute({ params, loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  return <FlashcardSessionPage key={params.groupId} groupId={params.groupId} data={loaderData} reload={() => void revalidator.revalidate()} />;
}
