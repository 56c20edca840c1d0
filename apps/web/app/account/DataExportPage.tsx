import type { ReactNode } from "react";
import { Spinner } from "@atelier/ui";
import { groupExportPath, type StudyClient, type SubtitleGroup } from "@atelier/site-api";

/** Where the account's data comes from (`GET /api/account/export/`, a JSON attachment). */
export const ACCOUNT_EXPORT_PATH = "/api/account/export/";

/** What the export page lists: the user's own decks, or that they could not be listed. */
export type DataExportData = { status: "ready"; ownGroups: SubtitleGroup[] } | { status: "error" };

/**
 * The export page's `clientLoader` (routes/account/export.tsx), a plain function so tests call it with a fake client.
 * A signed-out visitor's 401 lists no decks: the page is not shown to them, and a sign-in reloads it.
 */
export async function loadDataExport(client: Pick<StudyClient, "loadGroups">): Promise<DataExportData> {
  const result = await client.loadGroups();
  if (result.status === "ok") return { status: "ready", ownGroups: result.data.groups.filter((group) => group.is_owner) };
  return result.httpStatus === 401 ? { status: "ready", ownGroups: [] } : { status: "error" };
}

/** Shown in place of the deck list while it loads on a first visit (the route's `HydrateFallback`). */
export function DataExportLoading() {
  return <DataExportSections decks={<Spinner label="Loading your decks" />} />;
}

/**
 * /account/export: the whole account as one JSON file, and each of the user's own decks as CSV and for Anki (one's
 * own decks always export, whatever the plan), from its route's loader data.
 */
export function DataExportPage({ data }: { data: DataExportData }) {
  if (data.status === "error") return <DataExportSections decks={<p role="alert">Your decks could not be listed. Please reload the page.</p>} />;
  if (data.ownGroups.length === 0) return <DataExportSections decks={<p>You have not uploaded any subtitles yet.</p>} />;
  return (
    <DataExportSections
      decks={
        <ul className="data-export__decks">
          {data.ownGroups.map((group) => (
            <li key={group.id}>
              <span className="data-export__deck-name">{group.name}</span>
              <a href={groupExportPath(group.id, "csv")} download aria-label={`${group.name} as CSV`}>
                CSV
              </a>
              <a href={groupExportPath(group.id, "tsv")} download aria-label={`${group.name} for Anki`}>
                Anki
              </a>
            </li>
          ))}
        </ul>
      }
    />
  );
}

function DataExportSections({ decks }: { decks: ReactNode }) {
  return (
    <div className="data-export">
      <section aria-labelledby="data-export-account">
        <h2 id="data-export-account">Your account</h2>
        <p>
          One file (JSON) with your account and e-mail addresses, your sessions, your second factors (their type, name and
          dates; never a secret or a code), your third-party accounts, your subscriptions, the subtitle groups you uploaded
          with their sentence pairs, and your study progress.
        </p>
        <p>
          <a className="atelier-button atelier-button--primary atelier-button--medium" href={ACCOUNT_EXPORT_PATH} download>
            Download my data
          </a>
        </p>
      </section>
      <section aria-labelledby="data-export-decks">
        <h2 id="data-export-decks">Your flashcards</h2>
        {decks}
      </section>
    </div>
  );
}
