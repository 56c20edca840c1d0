import { useCallback, useEffect, useEffectEvent, useRef, useState, type Dispatch } from "react";
import type { FlashcardPair, StudyClient } from "@atelier/site-api";
import type { SessionAction } from "./session-state.ts";

interface PendingPairDeletion {
  pair: FlashcardPair;
  index: number;
}

/**
 * Delete with undo (issue 13): a deleted pair leaves the session at once but stays restorable for a few seconds before
 * the server is told. `reload` runs when the server has deleted it, `onError` gets the server's message when not.
 */
export function usePairDeletionWithUndo({ studyClient, dispatch, reload, onError }: {
  studyClient: StudyClient;
  dispatch: Dispatch<SessionAction>;
  reload: () => void;
  onError: (message: string) => void;
}) {
  const [pendingDeletion, setPendingDeletion] = useState<PendingPairDeletion | undefined>();
  const pendingDeletionRef = useRef<PendingPairDeletion | undefined>(undefined);

  const sendDeletion = useCallback(
    async (pairId: string) => {
      const result = await studyClient.deletePair(pairId);
      if (result.status === "ok") reload();
      else onError(result.message);
    },
    [onError, reload, studyClient],
  );

  const deletePair = (pair: FlashcardPair, index: number) => {
    if (pendingDeletionRef.current) void sendDeletion(pendingDeletionRef.current.pair.id);
    const deletion = { pair, index };
    pendingDeletionRef.current = deletion;
    setPendingDeletion(deletion);
    dispatch({ type: "pair-deleted", pairId: pair.id });
  };

  const undoDeletion = useCallback(() => {
    const deletion = pendingDeletionRef.current;
    if (!deletion) return;
    pendingDeletionRef.current = undefined;
    setPendingDeletion(undefined);
    dispatch({ type: "pair-restored", pair: deletion.pair, index: deletion.index });
  }, [dispatch]);

  // The server hears of a deletion once its undo has run out, or when the learner leaves the screen. The timer runs
  // from the deletion alone: a render in between (a new `reload` from the route) must not start it again.
  const sendDeletionAfterUndo = useEffectEvent((deletion: { pair: FlashcardPair }) => {
    if (pendingDeletionRef.current !== deletion) return;
    pendingDeletionRef.current = undefined;
    setPendingDeletion(undefined);
    void sendDeletion(deletion.pair.id);
  });
  useEffect(() => {
    if (!pendingDeletion) return;
    const timer = window.setTimeout(() => sendDeletionAfterUndo(pendingDeletion), 6_000);
    return () => window.clearTimeout(timer);
  }, [pendingDeletion]);
  useEffect(
    () => () => {
      if (pendingDeletionRef.current) void studyClient.deletePair(pendingDeletionRef.current.pair.id);
    },
    [studyClient],
  );

  return { pendingDeletion, deletePair, undoDeletion };
}
