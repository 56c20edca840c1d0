import { useCallback, useSyncExternalStore } from "react";

/** Which side a card shows first: the English sentence (spec's side A), or the Swedish one for recall practice. */
export type StudyDirection = "english-first" | "swedish-first";

const STUDY_DIRECTION_KEY = "atelier:study-direction";
const listeners = new Set<() => void>();

function readStudyDirection(): StudyDirection {
  try {
    return window.localStorage.getItem(STUDY_DIRECTION_KEY) === "swedish-first" ? "swedish-first" : "english-first";
  } catch {
    return "english-first";
  }
}

/**
 * The learner's direction, chosen on the setup screen and kept in this browser (issue 13).
 *
 * @example
 * const [direction, setDirection] = useStudyDirection();
 */
export function useStudyDirection(): [StudyDirection, (direction: StudyDirection) => void] {
  const direction = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readStudyDirection,
    () => "english-first" as const,
  );
  const setDirection = useCallback((next: StudyDirection) => {
    try {
      window.localStorage.setItem(STUDY_DIRECTION_KEY, next);
    } catch {
      // Without storage the choice lasts for this page only.
    }
    for (const listener of listeners) listener();
  }, []);
  return [direction, setDirection];
}
