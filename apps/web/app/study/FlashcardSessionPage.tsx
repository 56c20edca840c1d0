import { useCallback, useEffect, useId, useReducer, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { Button, ConfirmDialog, Spinner } from "@atelier/ui";
import { REVIEW_OPTIONS, type SessionConfig } from "@atelier/leitner";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { studyClient, type GroupStats } from "./study-client.ts";
import {
  createInitialSessionState,
  isSessionBlocked,
  readSavedSessionState,
  saveSessionState,
  sessionConfigFromNavigationState,
  sessionReducer,
} from "./session-state.ts";
import { ANONYMOUS_LIMIT_DIALOG } from "./study-meta.ts";
import { BoxStars, StudyStatsCards } from "./StudyStats.tsx";

function openAnonymousLimitDialog() {
  useLoginModalStore.getState().open({ title: ANONYMOUS_LIMIT_DIALOG.title, description: ANONYMOUS_LIMIT_DIALOG.description });
}

/** Keys typed into a field or pressed on a control belong to that control, not to the session. */
function isKeyForControl(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (target.closest("[role='dialog'], [role='alertdialog']")) return true;
  if (target.closest("input, select, textarea, [contenteditable='true']")) return true;
  return (event.key === " " || event.key === "Enter") && target.closest("button, a, [role='slider']") !== null;
}

/** /study/{groupId}/session (spec §2.13, §4, §6). */
export function FlashcardSessionPage({ groupId }: { groupId: string }) {
  const location = useLocation();
  const headingId = useId();
  const [state, dispatch] = useReducer(sessionReducer, sessionConfigFromNavigationState(location.state), createInitialSessionState);
  const [stats, setStats] = useState<GroupStats>();
  const [pending, setPending] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const restoreAttempted = useRef(false);

  const loadStats = useCallback(async () => {
    const result = await studyClient.loadStats(groupId);
    if (result.status === "error") {
      console.error(result.message);
      return;
    }
    setStats(result.data);
    if (result.data.anonymous_limit_reached) dispatch({ type: "anonymous-limit-reached" });
  }, [groupId]);

  const loadCards = useCallback(
    async (config: SessionConfig) => {
      dispatch({ type: "cards-requested", config });
      const result = await studyClient.loadPairs(groupId, { ...config, cardCount: config.cardCount });
      if (result.status === "ok") dispatch({ type: "cards-loaded", cards: result.data.pairs });
      else dispatch({ type: "cards-failed", message: result.message });
    },
    [groupId],
  );

  // The saved session is restored once, on the first render; otherwise the cards are loaded for the config.
  useEffect(() => {
    if (restoreAttempted.current) return;
    restoreAttempted.current = true;
    // The history entry's key survives a reload but is new for every visit from the setup, so only a reload (or
    // going back to this entry) restores; a new session from the setup starts fresh.
    const saved = readSavedSessionState(window.sessionStorage, { groupId, locationKey: location.key });
    if (saved) dispatch({ type: "restored", state: saved });
    else void loadCards(sessionConfigFromNavigationState(location.state));
    void loadStats();
  }, [groupId, location.key, location.state, loadCards, loadStats]);

  useEffect(() => {
    saveSessionState(window.sessionStorage, { groupId, locationKey: location.key }, state);
  }, [groupId, location.key, state]);

  const limitReached = state.anonymousLimit === "reached";
  useEffect(() => {
    if (limitReached) openAnonymousLimitDialog();
  }, [limitReached]);

  const card = state.status === "active" ? state.cards[state.index] : undefined;
  const blocked = isSessionBlocked(state);

  const rate = useCallback(
    async (isCorrect: boolean) => {
      if (!card || pending) return;
      if (blocked) {
        openAnonymousLimitDialog();
        return;
      }
      setPending(true);
      setActionError(undefined);
      const result = await studyClient.ratePair(card.id, isCorrect);
      setPending(false);
      if (result.status === "ok") {
        dispatch({ type: "rated", pairId: result.data.pair.id, currentBox: result.data.pair.current_box, anonymousLimitReached: result.data.anonymous_limit_reached });
        void loadStats();
      } else if (result.httpStatus === 403) {
        dispatch({ type: "anonymous-limit-reached" });
        openAnonymousLimitDialog();
      } else {
        setActionError("Your answer could not be saved. Please try again.");
      }
    },
    [blocked, card, loadStats, pending],
  );

  const move = useCallback(
    (direction: "next" | "previous") => {
      if (blocked) {
        openAnonymousLimitDialog();
        return;
      }
      dispatch({ type: "moved", direction });
    },
    [blocked],
  );

  const markStudied = async (then: "show-completion" | "switch-to-test") => {
    setPending(true);
    const result = await studyClient.markStudied(groupId, state.cards.map((loaded) => loaded.id));
    setPending(false);
    if (result.status === "error") console.error(result.message);
    if (then === "switch-to-test") {
      // Spec §4: switching to test also marks the cards as studied; the test runs on these same cards.
      dispatch({ type: "switched-to-test" });
      void loadStats();
    } else if (result.status === "ok") {
      dispatch({ type: "marked-studied" });
      void loadStats();
    }
  };

  const deletePair = async () => {
    if (!card) return;
    setPending(true);
    const result = await studyClient.deletePair(card.id);
    setPending(false);
    setDeleteOpen(false);
    if (result.status === "ok") {
      dispatch({ type: "pair-deleted", pairId: card.id });
      void loadStats();
    } else setActionError(result.message);
  };

  useEffect(() => {
    if (state.status !== "active") return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isKeyForControl(event)) return;
      if (useLoginModalStore.getState().state === "open") return;
      switch (event.key) {
        case " ":
        case "Enter":
          dispatch({ type: "flipped" });
          break;
        case "ArrowRight":
          if (state.config.mode !== "study") return;
          move("next");
          break;
        case "ArrowLeft":
          move("previous");
          break;
        case "1":
          void rate(false);
          break;
        case "2":
          void rate(true);
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    document.addEventListener("keydown", handleKeyDown);
    return () => document.removeEventListener("keydown", handleKeyDown);
  }, [move, rate, state.config.mode, state.status]);

  const configPath = `/study/${encodeURIComponent(groupId)}/config`;
  const backToConfig = (
    <Link className="atelier-button atelier-button--secondary atelier-button--medium" to={configPath}>
      Back to Config
    </Link>
  );
  const isStudy = state.config.mode === "study";

  return (
    <section className="page study-page flashcard-session" aria-labelledby={headingId} data-mode={state.config.mode} data-state={state.status}>
      <h1 id={headingId}>{stats ? stats.name : "Flashcards"}</h1>
      <p className="page-subtitle">{isStudy ? "Study mode" : "Test mode"}</p>
      {stats ? <StudyStatsCards stats={stats} /> : null}

      {state.status === "loading" ? <Spinner label="Loading cards" /> : null}

      {state.status === "load-error" || state.status === "empty" ? (
        <div className="study-completion">
          <p role={state.status === "load-error" ? "alert" : "status"}>{state.message}</p>
          {backToConfig}
        </div>
      ) : null}

      {state.status === "studied" ? (
        <div className="study-completion" role="status">
          <h2>Well done: these cards are studied</h2>
          <p>Test yourself on the same cards now, or go back and choose others.</p>
          <div className="study-actions">
            <Button onClick={() => dispatch({ type: "switched-to-test" })}>Test These Cards</Button>
            {backToConfig}
          </div>
        </div>
      ) : null}

      {state.status === "memorized-all" ? (
        <div className="study-completion" role="status">
          <h2>You have memorized all these cards</h2>
          <p>Review the cards you have already learned in test mode:</p>
          <div className="study-actions">
            {REVIEW_OPTIONS.map((count) => (
              <Button key={count} variant="secondary" onClick={() => void loadCards({ mode: "test", range: "reviewing", cardCount: count })}>
                Review {count} cards
              </Button>
            ))}
            {backToConfig}
          </div>
        </div>
      ) : null}

      {card ? (
        <>
          <div className="flashcard-meta">
            <BoxStars box={card.current_box} />
            <span className="flashcard-position" aria-label={`Card ${state.index + 1} of ${state.cards.length}`}>
              {state.index + 1} / {state.cards.length}
            </span>
            <ConfirmDialog
              open={deleteOpen}
              onOpenChange={setDeleteOpen}
              trigger={
                <Button size="small" variant="ghost">
                  Delete pair
                </Button>
              }
              title="Delete this pair?"
              description="The sentence pair is removed from the group for good."
              confirmLabel="Delete"
              confirmPendingLabel="Deleting…"
              confirmPending={pending}
              onConfirm={deletePair}
            />
          </div>

          <button
            type="button"
            className="flashcard"
            data-side={state.side}
            onClick={() => dispatch({ type: "flipped" })}
          >
            {/* The visible text is the button's name (WCAG 2.5.3); the hidden sentence says what pressing does. */}
            <span className="flashcard__side-label">{state.side === "A" ? "Side A · English" : "Side B · Swedish"}</span>
            <span className="flashcard__text" lang={state.side === "A" ? "en" : "sv"}>
              {state.side === "A" ? card.english : card.swedish}
            </span>
            <span className="atelier-visually-hidden">Press to show the {state.side === "A" ? "Swedish" : "English"} side.</span>
          </button>

          {actionError ? (
            <p role="alert" className="form-general-errors">
              {actionError}
            </p>
          ) : null}

          <div className="study-actions flashcard-rating">
            <Button variant="secondary" onClick={() => void rate(false)} disabled={pending} aria-keyshortcuts="1">
              I will try Again
            </Button>
            <Button onClick={() => void rate(true)} disabled={pending} aria-keyshortcuts="2">
              I got it Right
            </Button>
          </div>

          <div className="study-actions flashcard-navigation">
            <Button variant="ghost" onClick={() => move("previous")} disabled={state.index === 0} aria-keyshortcuts="ArrowLeft">
              Previous
            </Button>
            {isStudy ? (
              <Button variant="ghost" onClick={() => move("next")} disabled={state.index >= state.cards.length - 1} aria-keyshortcuts="ArrowRight">
                Next
              </Button>
            ) : null}
          </div>

          <div className="study-actions">
            {isStudy ? (
              <>
                <Button variant="secondary" onClick={() => void markStudied("switch-to-test")} disabled={pending}>
                  Switch to Test Mode
                </Button>
                <Button variant="secondary" onClick={() => void markStudied("show-completion")} disabled={pending}>
                  Mark as Studied
                </Button>
              </>
            ) : null}
            {backToConfig}
          </div>

          <section className="flashcard-shortcuts" aria-label="Keyboard shortcuts">
            <h2>Keyboard shortcuts</h2>
            <ul>
              <li>
                <kbd>Space</kbd> or <kbd>Enter</kbd>: flip the card
              </li>
              <li>
                <kbd>1</kbd>: I will try Again; <kbd>2</kbd>: I got it Right
              </li>
              <li>
                <kbd>←</kbd> Previous{isStudy ? <>, <kbd>→</kbd> Next</> : null}
              </li>
            </ul>
          </section>
        </>
      ) : null}
    </section>
  );
}
