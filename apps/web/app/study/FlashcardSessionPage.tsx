import { useCallback, useEffect, useLayoutEffect, useId, useReducer, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import {
  describeReviewDelay,
  moveLearningStateCount,
  nextReviewAfterAnswer,
  REVIEW_INTERVAL_DAYS_BY_BOX,
  REVIEW_OPTIONS,
  type CardLearningState,
  type SessionConfig,
} from "@atelier/leitner";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";
import { useStudyClient } from "./study-client.ts";
import { isDoubtfulPair, type FlashcardPair, type GroupStats, type StudyClient } from "@atelier/site-api";
import {
  createInitialSessionState,
  isSessionBlocked,
  readSavedSessionState,
  saveSessionState,
  sessionConfigFromNavigationState,
  sessionReducer,
  summarizeSession,
  type SavedSessionCards,
  type SessionAnswer,
} from "./session-state.ts";
import { useReadAloud, type SpeechLanguage } from "./speech.ts";
import { useStudyDirection } from "./study-preferences.ts";
import { ANONYMOUS_LIMIT_DIALOG } from "./study-meta.ts";
import { LockIcon } from "../components/LockIcon.tsx";
import { BoxStars, DoubtfulPairMark, StudyStatsCards } from "./StudyStats.tsx";
import { FilmContextLines } from "./FilmContextLines.tsx";
import { SessionSummaryPanel } from "./SessionSummaryPanel.tsx";
import { usePairDeletionWithUndo } from "./pair-deletion-with-undo.ts";

/**
 * Said beside the blocked buttons once the limit's dialog is closed: the buttons stay where they were, but a learner
 * must see why they only bring the dialog back.
 */
function AnonymousLimitNote() {
  return (
    <div className="study-limit-note" role="status">
      <p>
        <LockIcon />
        You have memorized 5 cards: log in or sign up to keep studying.
      </p>
      <Button onClick={openAnonymousLimitDialog}>
        Log in to keep studying
      </Button>
    </div>
  );
}

function openAnonymousLimitDialog() {
  useLoginModalStore.getState().open({ title: ANONYMOUS_LIMIT_DIALOG.title, description: ANONYMOUS_LIMIT_DIALOG.description });
}

/** Keys typed into a field or pressed on a control belong to that control, not to the session. */
function isKeyForControl(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof Element)) return false;
  if (target.closest("[role='dialog'], [role='alertdialog']")) return true;
  if (target.closest("input, select, textarea, [contenteditable='true']")) return true;
  return (event.key === " " || event.key === "Enter") && target.closest("button, a, summary, [role='slider']") !== null;
}

/**
 * What the session's route loads: the group's stats (its name, its counts, whether an anonymous learner is at the
 * limit), `undefined` when they fail (spec §8: the console only). The cards are not here: which ones depends on the
 * history entry (the setup's config in its navigation state, the session saved for it), which a loader cannot see.
 */
export interface FlashcardSessionData {
  stats: GroupStats | undefined;
}

/** The session's `clientLoader` (routes/study/session.tsx), a plain function so tests call it with a fake client. */
export async function loadFlashcardSession(client: StudyClient, groupId: string): Promise<FlashcardSessionData> {
  const result = await client.loadStats(groupId);
  if (result.status === "ok") return { stats: result.data };
  console.error(result.message);
  return { stats: undefined };
}

/** Shown while the session's stats load on a first visit (the route's `HydrateFallback`). */
export function FlashcardSessionLoading() {
  return (
    <section className="page study-page flashcard-session">
      <h1>Flashcards</h1>
      <Spinner label="Loading cards" />
    </section>
  );
}

/** The loader's stats, moved by each rating's answer (issue 16) until the loader brings the group's stats again. */
function useCountedStats(loaded: GroupStats | undefined) {
  const [counted, setCounted] = useState<{ loaded: GroupStats; stats: GroupStats }>();
  const stats = loaded && counted?.loaded === loaded ? counted.stats : loaded;
  const moveCount = useCallback(
    (before: CardLearningState, after: CardLearningState) => {
      if (!loaded) return;
      setCounted((current) => ({ loaded, stats: moveLearningStateCount(current?.loaded === loaded ? current.stats : loaded, before, after) }));
    },
    [loaded],
  );
  return [stats, moveCount] as const;
}

/**
 * The session of spec §2.13 (§4, §6) at /study/{groupId}/session, with its route's loader data; `reload` runs the
 * loader again when the group's stats have changed (cards studied, a pair deleted).
 */
export function FlashcardSessionPage({ groupId, data, reload }: { groupId: string; data: FlashcardSessionData; reload: () => void }) {
  const studyClient = useStudyClient();
  const location = useLocation();
  const headingId = useId();
  // A reload (or going back to this history entry) restores the session saved for the entry: its key survives a
  // reload but is new for every visit from the setup, so a new session from the setup starts fresh.
  const [state, dispatch] = useReducer(sessionReducer, undefined, () => {
    const restored = readSavedSessionState(window.sessionStorage, { groupId, locationKey: location.key });
    if (restored === undefined) return createInitialSessionState(sessionConfigFromNavigationState(location.state));
    // Whether the anonymous limit holds is the server's to say after a reload: signing in from its dialog lifts it.
    return { ...restored, anonymousLimit: data.stats?.anonymous_limit_reached === true ? ("reached" as const) : ("not-reached" as const) };
  });
  const [stats, moveStatsCount] = useCountedStats(data.stats);
  const [pending, setPending] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const firstCardsRequested = useRef(false);
  const [answers, setAnswers] = useState<SessionAnswer[]>([]);
  const [summaryState, setSummaryState] = useState<"hidden" | "shown" | "dismissed">("hidden");
  const [direction] = useStudyDirection();
  const [contextOpen, setContextOpen] = useState(false);
  const { canSpeak, speak } = useReadAloud();

  const fetchCards = useCallback(
    async (config: SessionConfig) => {
      const result = await studyClient.loadPairs(groupId, { ...config, cardCount: config.cardCount });
      if (result.status === "ok") dispatch({ type: "cards-loaded", cards: result.data.pairs });
      else dispatch({ type: "cards-failed", message: result.message, ...(result.detail !== undefined && { detail: result.detail }) });
    },
    [groupId, studyClient],
  );

  const loadCards = (config: SessionConfig) => {
    dispatch({ type: "cards-requested", config });
    setAnswers([]);
    setSummaryState("hidden");
    void fetchCards(config);
  };

  // The first cards are asked for once, on mount, unless the entry's session was restored: they come from the history
  // entry's config, which the route's clientLoader cannot see (decision 0035).
  useEffect(() => {
    if (firstCardsRequested.current) return;
    firstCardsRequested.current = true;
    if (state.status === "loading") void fetchCards(state.config);
  }, [fetchCards, state.status, state.config]);

  const savedCards = useRef<SavedSessionCards>(undefined);
  useEffect(() => {
    savedCards.current = saveSessionState(window.sessionStorage, { groupId, locationKey: location.key }, state, savedCards.current);
  }, [groupId, location.key, state]);

  // The group's stats say so when an anonymous learner arrives at the limit; a rating's answer says so on the way.
  const blocked = isSessionBlocked(state) || data.stats?.anonymous_limit_reached === true;
  useEffect(() => {
    if (blocked) openAnonymousLimitDialog();
  }, [blocked]);

  const card = state.status === "active" ? state.cards[state.index] : undefined;

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
        setAnswers((earlier) => [...earlier, { pairId: card.id, isCorrect, fromBox: card.current_box, toBox: result.data.pair.current_box }]);
        const learningState = result.data.learning_state;
        // The answer says how the card moved: the counts follow without the group's stats, which hold every pair.
        if (learningState) moveStatsCount(learningState.before, learningState.after);
        else reload();
      } else if (result.httpStatus === 403) {
        dispatch({ type: "anonymous-limit-reached" });
        openAnonymousLimitDialog();
      } else {
        setActionError("Your answer could not be saved. Please try again.");
      }
    },
    [blocked, card, moveStatsCount, pending, reload, studyClient],
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
      reload();
    } else if (result.status === "ok") {
      dispatch({ type: "marked-studied" });
      reload();
    }
  };

  const { pendingDeletion, deletePair, undoDeletion } = usePairDeletionWithUndo({ studyClient, dispatch, reload, onError: setActionError });
  // Deleting a pair or undoing it (button or Z) removes the focused button (the menu's, or Undo): focus goes to the
  // card now shown, whose Space flips it, rather than to the page. With no card left, Undo is what there is to do.
  const flashcardRef = useRef<HTMLButtonElement>(null);
  const undoButtonRef = useRef<HTMLButtonElement>(null);
  const focusShownCard = useRef(false);
  useEffect(() => {
    if (!focusShownCard.current) return;
    focusShownCard.current = false;
    (flashcardRef.current ?? undoButtonRef.current)?.focus();
  });
  const deletePairAndFocusNext = (pair: FlashcardPair, index: number) => {
    focusShownCard.current = true;
    deletePair(pair, index);
  };
  const undoDeletionAndFocusCard = () => {
    if (!pendingDeletion) return;
    focusShownCard.current = true;
    undoDeletion();
  };

  const summary = summarizeSession(answers, (box) => REVIEW_INTERVAL_DAYS_BY_BOX[box]);
  const everyCardAnswered = state.cards.length > 0 && summary.answered >= state.cards.length;
  // Shown once, when the last card gets its answer, and left on screen until the learner goes on.
  if (everyCardAnswered && summaryState === "hidden") setSummaryState("shown");

  const promptLanguage: SpeechLanguage = direction === "swedish-first" ? "sv" : "en";
  const answerLanguage: SpeechLanguage = promptLanguage === "sv" ? "en" : "sv";
  const textIn = (pair: FlashcardPair, language: SpeechLanguage) => (language === "sv" ? pair.swedish : pair.english);
  const speakVisibleSide = useCallback(() => {
    if (!card) return;
    const language = state.side === "A" ? promptLanguage : answerLanguage;
    speak(textIn(card, language), language);
  }, [answerLanguage, card, promptLanguage, speak, state.side]);

  // The listener is attached once, on mount, and reads the newest handler: a key pressed the moment the first card
  // shows must not fall between a render and the effect that would re-attach a listener.
  const handleKeyDownRef = useRef<(event: KeyboardEvent) => void>(undefined);
  useLayoutEffect(() => {
    handleKeyDownRef.current = (event: KeyboardEvent) => {
      if (state.status !== "active") return;
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isKeyForControl(event)) return;
      if (useLoginModalStore.getState().state === "open") return;
      switch (event.key) {
        case " ":
        case "Enter":
          dispatch({ type: "flipped" });
          break;
        case "1":
        case "ArrowLeft":
          void rate(false);
          break;
        case "2":
        case "ArrowRight":
          void rate(true);
          break;
        case "s":
        case "S":
          speakVisibleSide();
          break;
        case "z":
        case "Z":
          undoDeletionAndFocusCard();
          break;
        case "c":
        case "C":
          setContextOpen((open) => !open);
          break;
        default:
          return;
      }
      event.preventDefault();
    };
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => handleKeyDownRef.current?.(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

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
          <div role={state.status === "load-error" ? "alert" : "status"}>
            <p>{state.message}</p>
            {state.detail ? <p>{state.detail}</p> : null}
          </div>
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
          {blocked ? <AnonymousLimitNote /> : <p>Review the cards you have already learned in test mode:</p>}
          <div className="study-actions">
            {(blocked ? [] : REVIEW_OPTIONS).map((count) => (
              <Button key={count} variant="secondary" onClick={() => loadCards({ mode: "test", range: "memorized", cardCount: count })}>
                Review {count} cards
              </Button>
            ))}
            {backToConfig}
          </div>
        </div>
      ) : null}

      {pendingDeletion ? (
        <div className="study-undo" role="status">
          <span>Pair deleted.</span>
          <Button ref={undoButtonRef} size="small" variant="secondary" onClick={undoDeletionAndFocusCard} aria-keyshortcuts="Z">
            Undo
          </Button>
        </div>
      ) : null}

      {summaryState === "shown" && state.status === "active" ? (
        <SessionSummaryPanel headingId={`${headingId}-summary`} summary={summary} backToConfig={backToConfig} onKeepGoing={() => setSummaryState("dismissed")} />
      ) : null}

      {card && summaryState !== "shown" ? (
        <div className="flashcard-stage">
          <div className="flashcard-progress">
            <div
              className="flashcard-progress__bar"
              role="progressbar"
              aria-label="Cards answered in this session"
              aria-valuemin={0}
              aria-valuemax={state.cards.length}
              aria-valuenow={Math.min(summary.answered, state.cards.length)}
            >
              <span style={{ width: `${(Math.min(summary.answered, state.cards.length) / state.cards.length) * 100}%` }} />
            </div>
            <span className="flashcard-position" aria-label={`Card ${state.index + 1} of ${state.cards.length}`}>
              {state.index + 1} / {state.cards.length}
            </span>
          </div>

          <div className="flashcard-meta">
            <BoxStars box={card.current_box} />
            {isDoubtfulPair(card) ? (
              <span className="flashcard-doubtful">
                <DoubtfulPairMark /> Check this pair
              </span>
            ) : null}
            <details
              // Each card comes with its menu closed: the menu opened on a deleted or left card must not stay open over the next.
              key={card.id}
              className="flashcard-menu"
              onKeyDown={(event) => {
                const menu = event.currentTarget;
                if (event.key !== "Escape" || !menu.open) return;
                event.preventDefault();
                menu.open = false;
                menu.querySelector("summary")?.focus();
              }}
            >
              <summary aria-label="More actions for this card">More</summary>
              <div className="flashcard-menu__items">
                <Button size="small" variant="ghost" onClick={() => deletePairAndFocusNext(card, state.index)}>
                  Delete pair
                </Button>
              </div>
            </details>
          </div>

          <button ref={flashcardRef} type="button" className="flashcard" data-side={state.side} onClick={() => dispatch({ type: "flipped" })}>
            {/* The visible text is the button's name (WCAG 2.5.3); the hidden sentence says what pressing does. */}
            <span className="flashcard__side-label">{promptLanguage === "en" ? "Side A · English" : "Side B · Swedish"}</span>
            <span className="flashcard__text" lang={promptLanguage}>
              {textIn(card, promptLanguage)}
            </span>
            {state.side === "B" ? (
              <>
                <span className="flashcard__divider" aria-hidden="true" />
                <span className="flashcard__side-label">{answerLanguage === "sv" ? "Side B · Swedish" : "Side A · English"}</span>
                <span className="flashcard__text flashcard__text--answer" lang={answerLanguage}>
                  {textIn(card, answerLanguage)}
                </span>
              </>
            ) : (
              <span className="atelier-visually-hidden">Press to show the {answerLanguage === "sv" ? "Swedish" : "English"} side.</span>
            )}
          </button>

          <FilmContextLines context={card.context} promptLanguage={promptLanguage} flipped={state.side === "B"} open={contextOpen} onOpenChange={setContextOpen} />

          {canSpeak(promptLanguage) || canSpeak(answerLanguage) ? (
            <div className="flashcard-speech">
              {canSpeak(promptLanguage) ? (
                <Button size="small" variant="ghost" onClick={() => speak(textIn(card, promptLanguage), promptLanguage)}>
                  Read aloud ({promptLanguage === "sv" ? "Swedish" : "English"})
                </Button>
              ) : null}
              {state.side === "B" && canSpeak(answerLanguage) ? (
                <Button size="small" variant="ghost" onClick={() => speak(textIn(card, answerLanguage), answerLanguage)}>
                  Read aloud ({answerLanguage === "sv" ? "Swedish" : "English"})
                </Button>
              ) : null}
            </div>
          ) : null}

          {actionError ? (
            <p role="alert" className="form-general-errors">
              {actionError}
            </p>
          ) : null}

          {blocked ? <AnonymousLimitNote /> : null}

          <div className="flashcard-rating" data-blocked={blocked ? "true" : undefined}>
            <Button variant="secondary" onClick={() => void rate(false)} disabled={pending} aria-disabled={blocked || undefined} aria-keyshortcuts="1 ArrowLeft">
              <span>I will try Again</span>
              <span className="flashcard-rating__when">back {describeReviewDelay(nextReviewAfterAnswer(card.current_box, false).daysUntilDue)}</span>
            </Button>
            <Button onClick={() => void rate(true)} disabled={pending} aria-disabled={blocked || undefined} aria-keyshortcuts="2 ArrowRight">
              <span>I got it Right</span>
              <span className="flashcard-rating__when">back {describeReviewDelay(nextReviewAfterAnswer(card.current_box, true).daysUntilDue)}</span>
            </Button>
          </div>

          <div className="study-actions flashcard-navigation">
            <Button variant="ghost" onClick={() => move("previous")} disabled={state.index === 0}>
              Previous
            </Button>
            {isStudy ? (
              <Button variant="ghost" onClick={() => move("next")} disabled={state.index >= state.cards.length - 1}>
                Next
              </Button>
            ) : null}
          </div>

          <div className="study-actions flashcard-session-actions">
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
                <kbd>Space</kbd> flip the card
              </li>
              <li>
                <kbd>1</kbd> or <kbd>←</kbd> I will try Again
              </li>
              <li>
                <kbd>2</kbd> or <kbd>→</kbd> I got it Right
              </li>
              <li>
                <kbd>S</kbd> read aloud
              </li>
              <li>
                <kbd>C</kbd> show or hide the context
              </li>
              <li>
                <kbd>Z</kbd> undo a deletion
              </li>
            </ul>
          </section>
        </div>
      ) : null}
    </section>
  );
}
