import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "@atelier/ui";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import type { StudyResult } from "@atelier/site-api";
import { useStudyClient } from "./study-client.ts";

const SENTENCE_BOUNDARY = /(?<=[.!?…]+["'»”’)\]]*)\s+(?=["'«“‘([¿¡]*[\p{Lu}\p{N}])/u;

/** How many sentences a side holds, as the server counts them for a split (it checks again). */
export function countSentences(text: string): number {
  return text.split(SENTENCE_BOUNDARY).filter((piece) => piece.trim().length > 0).length;
}

/** Enough rows to show a side without scrolling on a phone, at most 6. */
function rowsFor(text: string): number {
  return Math.max(2, Math.min(6, Math.ceil(text.length / 32)));
}

/** How long a deleted pair can be brought back before the server is told. */
export const PAIR_DELETION_UNDO_MILLISECONDS = 6_000;

export type PairFixTarget = { id: string; english: string; swedish: string; number: number; isLast: boolean };

function SplitControls({ pair, onSplit, pending }: { pair: PairFixTarget; onSplit: (english: number, swedish: number) => void; pending: boolean }) {
  const id = useId();
  const englishCount = countSentences(pair.english);
  const swedishCount = countSentences(pair.swedish);
  const [english, setEnglish] = useState(1);
  const [swedish, setSwedish] = useState(1);
  if (englishCount < 2 || swedishCount < 2) {
    return <p className="pair-fix__hint">To split a pair, both sides need at least two sentences.</p>;
  }
  const options = (count: number) => Array.from({ length: count - 1 }, (_, index) => index + 1);
  return (
    <fieldset className="pair-fix__split">
      <legend>Split after</legend>
      <label htmlFor={`${id}-english`}>English sentences on the first card</label>
      <select id={`${id}-english`} value={english} onChange={(event) => setEnglish(Number(event.target.value))}>
        {options(englishCount).map((count) => (
          <option key={count}>{count}</option>
        ))}
      </select>
      <label htmlFor={`${id}-swedish`}>Swedish sentences on the first card</label>
      <select id={`${id}-swedish`} value={swedish} onChange={(event) => setSwedish(Number(event.target.value))}>
        {options(swedishCount).map((count) => (
          <option key={count}>{count}</option>
        ))}
      </select>
      <Button size="small" variant="secondary" disabled={pending} onClick={() => onSplit(english, swedish)}>
        Split
      </Button>
    </fieldset>
  );
}

/**
 * The owner's editor of one pair, under its row: both sides, merge with the next pair, split at a sentence boundary
 * and delete (with undo, in the list). Escape cancels.
 */
export function PairEditor({ pair, onDone, onCancel, onDelete }: { pair: PairFixTarget; onDone: () => void; onCancel: () => void; onDelete: () => void }) {
  const client = useStudyClient();
  const id = useId();
  const [english, setEnglish] = useState(pair.english);
  const [swedish, setSwedish] = useState(pair.swedish);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  const run = async (change: () => Promise<StudyResult<unknown>>) => {
    setPending(true);
    setError(undefined);
    const result = await change();
    setPending(false);
    if (result.status === "ok") onDone();
    else setError(result.message);
  };
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sides = { ...(english.trim() !== pair.english ? { english } : {}), ...(swedish.trim() !== pair.swedish ? { swedish } : {}) };
    if (Object.keys(sides).length === 0) {
      onCancel();
      return;
    }
    void run(() => client.editPair(pair.id, sides));
  };
  const cancelOnEscape = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <form className="pair-fix" onSubmit={save} onKeyDown={cancelOnEscape} aria-label={`Fix pair ${pair.number}`}>
      <div className="form-field">
        <label htmlFor={`${id}-english`}>English</label>
        <textarea id={`${id}-english`} lang="en" rows={rowsFor(english)} value={english} maxLength={1000} onChange={(event) => setEnglish(event.target.value)} autoFocus />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-swedish`}>Swedish</label>
        <textarea id={`${id}-swedish`} lang="sv" rows={rowsFor(swedish)} value={swedish} maxLength={1000} onChange={(event) => setSwedish(event.target.value)} />
      </div>
      <FormGeneralErrors errors={error ? [error] : []} />
      <div className="pair-fix__actions">
        <Button type="submit" size="small" disabled={pending}>
          Save
        </Button>
        <Button size="small" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="small" variant="secondary" disabled={pending || pair.isLast} onClick={() => void run(() => client.mergePairWithNext(pair.id))}>
          Merge with next
        </Button>
        <Button size="small" variant="ghost" disabled={pending} onClick={onDelete}>
          Delete
        </Button>
      </div>
      <SplitControls pair={pair} pending={pending} onSplit={(englishSentences, swedishSentences) => void run(() => client.splitPair(pair.id, { englishSentences, swedishSentences }))} />
    </form>
  );
}

/**
 * A deleted pair waits a few seconds with an Undo before the server is told; leaving the page tells it at once.
 */
export function usePairDeletionWithUndo(onDeleted: () => void) {
  const client = useStudyClient();
  const [pending, setPending] = useState<string | undefined>();
  const pendingRef = useRef<string | undefined>(undefined);
  // The timer runs from the deletion alone: a newer `onDeleted` (the page rendered again) must not start it again.
  const sendDeletionAfterUndo = useEffectEvent((pairId: string) => {
    setPending(undefined);
    void client.deletePair(pairId).then(() => onDeleted());
  });
  useEffect(() => {
    pendingRef.current = pending;
    if (pending === undefined) return;
    const timer = window.setTimeout(() => sendDeletionAfterUndo(pending), PAIR_DELETION_UNDO_MILLISECONDS);
    return () => window.clearTimeout(timer);
  }, [pending]);
  useEffect(
    () => () => {
      if (pendingRef.current !== undefined) void client.deletePair(pendingRef.current);
    },
    [client],
  );
  const deletePair = (pairId: string) => {
    // A second deletion sends the first at once rather than forgetting it.
    if (pendingRef.current !== undefined && pendingRef.current !== pairId) void client.deletePair(pendingRef.current).then(() => onDeleted());
    setPending(pairId);
  };
  return { pendingDeletion: pending, deletePair, undoDeletion: () => setPending(undefined) };
}
