import { SubtitleGroupsPage } from "../study/SubtitleGroupsPage.tsx";
import { studyPageMeta } from "../study/study-meta.ts";

export const meta = studyPageMeta("Learn Swedish from subtitles");

export default function UploadSubtitlesRoute() {
  return <SubtitleGroupsPage />;
}
