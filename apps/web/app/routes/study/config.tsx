import { useRevalidator } from "react-router";
import { studyClient } from "../../study/study-client.ts";
import { loadStudySetup, StudySetupLoading, StudySetupPage } from "../../study/StudySetupPage.tsx";
import { studyPageMeta } from "../../study/study-meta.ts";
import type { Route } from "./+types/config";

export const meta = studyPageMeta("Study setup");

export function clientLoader({ params }: Route.ClientLoaderArgs) {
  return loadStudySetup(studyClient, params.groupId);
}

export function HydrateFallback() {
  return <StudySetupLoading />;
}

export default function StudyConfigRoute({ params, loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  // A new group starts a fresh setup rather than keeping the previous group's choices.
  return <StudySetupPage key={params.groupId} groupId={params.groupId} data={loaderData} reload={() => void revalidator.revalidate()} />;
}
