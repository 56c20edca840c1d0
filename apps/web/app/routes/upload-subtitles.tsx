import { useRevalidator } from "react-router";
import { studyClient } from "../study/study-client.ts";
import { loadSubtitleGroups, SubtitleGroupsLoading, SubtitleGroupsPage } from "../study/SubtitleGroupsPage.tsx";
import { studyPageMeta } from "../study/study-meta.ts";
import type { Route } from "./+types/upload-subtitles";

export const meta = studyPageMeta("Learn Swedish from subtitles");

export function clientLoader() {
  return loadSubtitleGroups(studyClient);
}

export function HydrateFallback() {
  return <SubtitleGroupsLoading />;
}

export default function UploadSubtitlesRoute({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  return <SubtitleGroupsPage data={loaderData} reload={() => void revalidator.revalidate()} />;
}
