import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { LockIcon } from "../components/LockIcon.tsx";
import { Badge, Button, ConfirmDialog, Spinner } from "@atelier/ui";
import { useAuthStatus } from "@atelier/auth/react";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { useStudyClient } from "./study-client.ts";
import { type DeckAllowance, type StudyClient, type SubtitleGroup } from "@atelier/site-api";
import { UploadForm } from "./UploadForm.tsx";

/** Set before a signed-out click opens the login modal; the page reloads after sign-in and then opens the form. */
const OPEN_UPLOAD_FORM_AFTER_LOGIN_KEY = "upload-subtitles:open-form";

/** What the page lists: the saved groups and, for a signed-in user, the plan's private-deck allowance; or the error. */
export type SubtitleGroupsData = { status: "error"; message: string } | { status: "ready"; groups: SubtitleGroup[]; allowance?: DeckAllowance };

/** The page's `clientLoader` (routes/upload-subtitles.tsx), a plain function so tests call it with a fake client. */
export async function loadSubtitleGroups(client: StudyClient): Promise<SubtitleGroupsData> {
  const result = await client.loadGroups();
  return result.status === "ok" ? { status: "ready", groups: result.data.groups, allowance: result.data.allowance } : { status: "error", message: result.message };
}

function SubtitleGroupsIntroduction() {
  return (
    <>
      <h1>Learn Swedish from film subtitles</h1>
      <p className="page-subtitle">Upload a Swedish and an English subtitle file, then study the sentence pairs as flashcards.</p>
    </>
  );
}

/** Shown while the groups load on a first visit (the route's `HydrateFallback`); the upload button waits for the page. */
export function SubtitleGroupsLoading() {
  return (
    <section className="page study-page">
      <SubtitleGroupsIntroduction />
      <h2>Saved groups</h2>
      <Spinner label="Loading groups" />
    </section>
  );
}

/** "Private decks: 1 of 5 (Basic plan)": shown to the signed-in user under the list. */
function PrivateDeckAllowance({ allowance }: { allowance: DeckAllowance }) {
  const plan = allowance.plan === null ? "without a plan" : `${allowance.plan} plan`;
  if (allowance.private_deck_limit === null) {
    return <p className="plan-allowance">Private decks: {allowance.private_decks}, no limit ({plan}).</p>;
  }
  return (
    <p className="plan-allowance">
      {allowance.may_add_private_deck ? null : <LockIcon />}
      Private decks: {allowance.private_decks} of {allowance.private_deck_limit} ({plan}).{" "}
      {allowance.may_add_private_deck ? null : (
        <>
          <Link to="/pricing">See the plans</Link> to keep more decks private.
        </>
      )}
    </p>
  );
}

function RenameForm({ group, onRenamed, onCancel }: { group: SubtitleGroup; onRenamed: (group: SubtitleGroup) => void; onCancel: () => void }) {
  const studyClient = useStudyClient();
  const id = useId();
  const [name, setName] = useState(group.name);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    // Spec §5: an empty or unchanged name is ignored.
    if (trimmed === "" || trimmed === group.name) {
      onCancel();
      return;
    }
    setPending(true);
    const result = await studyClient.renameGroup(group.id, trimmed);
    setPending(false);
    if (result.status === "ok") onRenamed(result.data.group);
    else setError(result.message);
  };
  return (
    <form
      className="group-rename"
      onSubmit={handleSubmit}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <label htmlFor={`${id}-name`}>New name for {group.name}</label>
      <input id={`${id}-name`} type="text" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      <Button type="submit" size="small" disabled={pending}>
        Save
      </Button>
      <Button size="small" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      {error ? (
        <p role="alert" className="form-general-errors">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** "1 pair", "559 pairs". */
export function describePairCount(count: number): string {
  return `${count.toLocaleString("en-GB")} ${count === 1 ? "pair" : "pairs"}`;
}

function GroupItem({ group, onChanged, onDeleted }: { group: SubtitleGroup; onChanged: (group: SubtitleGroup) => void; onDeleted: (groupId: string) => void }) {
  const studyClient = useStudyClient();
  const [renaming, setRenaming] = useState(false);
  const renameButtonRef = useRef<HTMLButtonElement>(null);
  const [error, setError] = useState<string>();
  const [togglePending, setTogglePending] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [deletePending, setDeletePending] = useState(false);

  const toggleVisibility = async () => {
    setTogglePending(true);
    setError(undefined);
    const result = await studyClient.toggleGroupVisibility(group.id);
    setTogglePending(false);
    if (result.status === "ok") onChanged(result.data.group);
    else setError(result.message);
  };

  const deleteGroup = async () => {
    setDeletePending(true);
    const result = await studyClient.deleteGroup(group.id);
    setDeletePending(false);
    setDeleteOpen(false);
    // 404: deleted meanwhile (another tab, another device); the list catches up rather than showing an error.
    if (result.status === "ok" || result.httpStatus === 404) onDeleted(group.id);
    else setError(result.message);
  };

  return (
    <li className="group-item">
      <div className="group-item__summary">
        <h3 className="group-item__name">{group.name}</h3>
        <Badge tone={group.is_public ? "success" : "neutral"}>{group.is_public ? "Public" : "Private"}</Badge>
        <span className="group-item__count">{describePairCount(group.pair_count)}</span>
      </div>
      {renaming ? (
        <RenameForm
          group={group}
          onCancel={() => {
            setRenaming(false);
            // The form and the field that had focus go away: focus goes back where the renaming began.
            renameButtonRef.current?.focus();
          }}
          onRenamed={(renamed) => {
            setRenaming(false);
            onChanged(renamed);
          }}
        />
      ) : null}
      <div className="group-item__actions">
        <Link className="atelier-button atelier-button--primary atelier-button--small" to={`/study/${encodeURIComponent(group.id)}/config`} aria-label={`Study ${group.name}`}>
          Study
        </Link>
        {group.is_owner ? (
          <>
            <Button ref={renameButtonRef} size="small" variant="secondary" onClick={() => setRenaming(true)} aria-label={`Rename ${group.name}`}>
              Rename
            </Button>
            <Button size="small" variant="secondary" onClick={toggleVisibility} disabled={togglePending} aria-label={`${group.is_public ? "Make private" : "Make public"}: ${group.name}`}>
              {group.is_public ? "Make private" : "Make public"}
            </Button>
            <ConfirmDialog
              open={deleteOpen}
              onOpenChange={setDeleteOpen}
              trigger={
                <Button size="small" variant="ghost" aria-label={`Delete ${group.name}`}>
                  Delete
                </Button>
              }
              title="Are you sure you want to delete this group?"
              description={`${group.name} and its ${describePairCount(group.pair_count)} will be deleted.`}
              confirmLabel="Delete"
              confirmPendingLabel="Deleting…"
              confirmPending={deletePending}
              onConfirm={deleteGroup}
            />
          </>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="form-general-errors">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** A renamed, re-shared or deleted group shows at once; the loader's next list (asked for with it) replaces these edits. */
function useEditedGroups(loaded: SubtitleGroup[]) {
  const [edited, setEdited] = useState<{ loaded: SubtitleGroup[]; groups: SubtitleGroup[] }>();
  const groups = edited?.loaded === loaded ? edited.groups : loaded;
  const edit = (change: (groups: SubtitleGroup[]) => SubtitleGroup[]) =>
    setEdited((current) => ({ loaded, groups: change(current?.loaded === loaded ? current.groups : loaded) }));
  return [groups, edit] as const;
}

const noGroups: SubtitleGroup[] = [];

/**
 * /upload-subtitles (spec §2.11): the saved groups from the route's loader data, and the upload form after sign-in;
 * `reload` runs the loader again after a change (an upload, a rename, a visibility, a deletion).
 */
export function SubtitleGroupsPage({ data, reload }: { data: SubtitleGroupsData; reload: () => void }) {
  const { isAuthenticated, loadState } = useAuthStatus();
  const [groups, editGroups] = useEditedGroups(data.status === "ready" ? data.groups : noGroups);
  const [deletedGroupIds, setDeletedGroupIds] = useState<ReadonlySet<string>>(() => new Set());

  // Whether this page was reached signed in, known once the status is. A sign-in on this very page comes from the
  // login modal, which reloads the page (or hands over to a flow's page that brings the visitor back): only the page
  // reached signed in opens the form, else the key would be spent just before the reload (issue 13).
  const [arrival, setArrival] = useState<"unknown" | "signed-in" | "signed-out">("unknown");
  if (arrival === "unknown" && loadState === "ready") setArrival(isAuthenticated ? "signed-in" : "signed-out");
  const [formAskedForBeforeSignIn] = useState(() => window.sessionStorage.getItem(OPEN_UPLOAD_FORM_AFTER_LOGIN_KEY) !== null);
  const formOpensAfterSignIn = formAskedForBeforeSignIn && arrival === "signed-in";
  useEffect(() => {
    if (formOpensAfterSignIn) window.sessionStorage.removeItem(OPEN_UPLOAD_FORM_AFTER_LOGIN_KEY);
  }, [formOpensAfterSignIn]);
  const [formOpenedHere, setFormOpenedHere] = useState(false);
  const formOpen = formOpenedHere || formOpensAfterSignIn;

  const openUploadForm = () => {
    if (isAuthenticated) {
      setFormOpenedHere(true);
      return;
    }
    window.sessionStorage.setItem(OPEN_UPLOAD_FORM_AFTER_LOGIN_KEY, "1");
    useLoginModalStore.getState().open({ title: "Log in to upload subtitles", description: "Sign in or create an account to upload your own subtitle files." });
  };

  const replaceGroup = (changed: SubtitleGroup) => {
    editGroups((current) => current.map((group) => (group.id === changed.id ? changed : group)));
    // Visibility changes what the plan's allowance has left.
    reload();
  };
  const removeGroup = (groupId: string) => {
    editGroups((current) => current.filter((group) => group.id !== groupId));
    setDeletedGroupIds((current) => new Set(current).add(groupId));
    reload();
  };

  return (
    <section className="page study-page">
      <SubtitleGroupsIntroduction />

      <div className="study-upload">
        {formOpen && isAuthenticated ? (
          <UploadForm onUploaded={reload} allowance={data.status === "ready" ? data.allowance : undefined} deletedGroupIds={deletedGroupIds} />
        ) : (
          <Button onClick={openUploadForm}>Upload subtitles</Button>
        )}
      </div>

      <h2>Saved groups</h2>
      {data.status === "error" ? (
        <p role="alert" className="form-general-errors">
          {data.message}
        </p>
      ) : null}
      {data.status === "ready" ? (
        groups.length === 0 ? (
          <p>No subtitle groups yet.</p>
        ) : (
          <ul className="group-list">
            {groups.map((group) => (
              <GroupItem key={group.id} group={group} onChanged={replaceGroup} onDeleted={removeGroup} />
            ))}
          </ul>
        )
      ) : null}
      {data.status === "ready" && data.allowance ? <PrivateDeckAllowance allowance={data.allowance} /> : null}
    </section>
  );
}
