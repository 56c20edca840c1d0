import { artistProfile } from "@atelier/catalogue";
import { FacebookPageTimeline } from "../components/FacebookPageTimeline.tsx";
import { ThirdPartyEmbedGate } from "../components/ThirdPartyEmbedGate.tsx";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

const TIMELINE_WIDTH = 500;
const TIMELINE_HEIGHT = 700;

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Events",
    description: `Upcoming exhibitions and events of ${artistProfile.name} in Clarens and beyond.`,
    path: "/events",
  });

export default function EventsPage() {
  return (
    <div className="page page--narrow">
      <h1>Events</h1>
      <p className="page-subtitle">You are warmly invited to the upcoming exhibitions: come and see the paintings in person.</p>
      <ThirdPartyEmbedGate providerName="Facebook" buttonLabel="Show the events timeline" width={TIMELINE_WIDTH} height={TIMELINE_HEIGHT} staticEmbed={{ kind: "facebook-page", pageUrl: artistProfile.eventsPageUrl }}>
        {() => <FacebookPageTimeline pageUrl={artistProfile.eventsPageUrl} width={TIMELINE_WIDTH} height={TIMELINE_HEIGHT} />}
      </ThirdPartyEmbedGate>
      <p className="events-fallback">
        If the timeline does not show, see the event calendar on <a href={artistProfile.eventsPageUrl}>our Facebook page</a>, or phone the gallery at{" "}
        <a href={`tel:${artistProfile.phone.replace(/\s+/g, "")}`}>{artistProfile.phone}</a>.
      </p>
    </div>
  );
}
