import { useEffect, useState } from "react";
import { Spinner } from "@atelier/ui";
import { studyClient } from "../study/study-client.ts";
import { groupExportPath, type SubtitleGroup } from "@atelier/site-api";

/** Where the account's data comes from (`GET /api/account/export/`, a JSON attachment). */
export const ACCOUNT_EXPORT_PATH = "/api/account/export/";

/**
 * /account/export: the whole account as one JSON file, and each of the user's own decks as CSV and for Anki (one's
 * own decks always export, whatever the plan).
 */
export function DataExportPage({ client = studyClient }: { client?: Pick<typeof studyClient, "loadGroups"> }) {
  const [ownGroups, setOwnGroups] = useState<SubtitleGroup[] | "loading" | "error">("loading");
  useEffect(() => {
    let current = true;
    void client.loadGroups().then((result) => {
      if (current) setOwnGroups(result.status === "ok" ? result.data.groups.filter((group) => group.is_owner) : "error");
    });
    return () => {
      current = false;
    };
  }, [client]);

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
        {ownGroups === "loading" ? <Spinner label="Loading your decks" /> : null}
        {ownGroups === "error" ? <p role="alert">Your decks could not be listed. Please reload the page.</p> : null}
        {Array.isArray(ownGroups) && ownGroups.length === 0 ? <p>You have not uploaded any subtitles yet.</p> : null}
        {Array.isArray(ownGroups) && ownGroups.length > 0 ? (
          <ul className="data-export__decks">
            {ownGroups.map((group) => (
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
        ) : null}
      </section>
    </div>
  );
}
