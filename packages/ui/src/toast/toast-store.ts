/** How long a toast stays on screen unless `durationMilliseconds` says otherwise. */
export const DEFAULT_TOAST_DURATION_MILLISECONDS = 300;

export type ToastTone = "neutral" | "success" | "danger";

export interface Toast {
  id: string;
  message: string;
  tone: ToastTone;
  durationMilliseconds: number;
}

export interface ShowToastOptions {
  message: string;
  tone?: ToastTone;
  /** Defaults to DEFAULT_TOAST_DURATION_MILLISECONDS; `Infinity` keeps the toast until it is dismissed. */
  durationMilliseconds?: number;
}

/** The timer functions the store uses, passed in so tests and servers can supply their own. */
export interface ToastClock<TimerHandle> {
  setTimeout: (callback: () => void, milliseconds: number) => TimerHandle;
  clearTimeout: (handle: TimerHandle) => void;
}

export interface ToastStore {
  /** The visible toasts, oldest first. The array is replaced, never mutated, on every change. */
  getToasts: () => readonly Toast[];
  /** Adds a toast and returns its id. */
  showToast: (options: ShowToastOptions) => string;
  dismissToast: (toastId: string) => void;
  /** Removes every toast and cancels their timers, e.g. when the app unmounts. */
  dismissAllToasts: () => void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void;
}

type DefaultTimerHandle = ReturnType<typeof globalThis.setTimeout>;

// Looked up on each call rather than captured, so fake timers installed after the store was created still apply.
const globalToastClock: ToastClock<DefaultTimerHandle> = {
  setTimeout: (callback, milliseconds) => globalThis.setTimeout(callback, milliseconds),
  clearTimeout: (handle) => globalThis.clearTimeout(handle),
};

/**
 * A framework-free toast queue: each toast removes itself after its duration.
 *
 * @example
 * const toastStore = createToastStore({ setTimeout, clearTimeout });
 * toastStore.subscribe(() => render(toastStore.getToasts()));
 * toastStore.showToast({ message: "Painting saved", tone: "success" });
 */
export function createToastStore<TimerHandle = DefaultTimerHandle>(
  clock: ToastClock<TimerHandle> = globalToastClock as unknown as ToastClock<TimerHandle>,
): ToastStore {
  let toasts: readonly Toast[] = [];
  let nextToastNumber = 1;
  const timerHandlesByToastId = new Map<string, TimerHandle>();
  const listeners = new Set<() => void>();

  function notifyListeners() {
    for (const listener of [...listeners]) listener();
  }

  function dismissToast(toastId: string) {
    const timerHandle = timerHandlesByToastId.get(toastId);
    if (timerHandle !== undefined) {
      clock.clearTimeout(timerHandle);
      timerHandlesByToastId.delete(toastId);
    }
    if (!toasts.some((toast) => toast.id === toastId)) return;
    toasts = toasts.filter((toast) => toast.id !== toastId);
    notifyListeners();
  }

  return {
    getToasts: () => toasts,
    showToast({ message, tone = "neutral", durationMilliseconds = DEFAULT_TOAST_DURATION_MILLISECONDS }) {
      const toastId = `toast-${nextToastNumber}`;
      nextToastNumber += 1;
      toasts = [...toasts, { id: toastId, message, tone, durationMilliseconds }];
      if (Number.isFinite(durationMilliseconds)) {
        timerHandlesByToastId.set(
          toastId,
          clock.setTimeout(() => {
            timerHandlesByToastId.delete(toastId);
            dismissToast(toastId);
          }, durationMilliseconds),
        );
      }
      notifyListeners();
      return toastId;
    },
    dismissToast,
    dismissAllToasts() {
      for (const timerHandle of timerHandlesByToastId.values()) clock.clearTimeout(timerHandle);
      timerHandlesByToastId.clear();
      if (toasts.length === 0) return;
      toasts = [];
      notifyListeners();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
