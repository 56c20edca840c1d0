import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { joinClassNames } from "../class-names";
import { createToastStore, type ShowToastOptions, type ToastStore } from "./toast-store";

const ToastStoreContext = createContext<ToastStore | null>(null);

export interface ToastProviderProps {
  children: ReactNode;
  /** A store made with createToastStore, e.g. with a test clock; by default the provider makes its own. */
  store?: ToastStore;
}

/**
 * Holds the toast queue for its subtree. Place one ToastViewport inside it.
 *
 * @example
 * <ToastProvider><App /><ToastViewport /></ToastProvider>
 */
export function ToastProvider({ children, store }: ToastProviderProps) {
  const [ownStore] = useState(() => store ?? createToastStore());
  const activeStore = store ?? ownStore;
  useEffect(() => () => activeStore.dismissAllToasts(), [activeStore]);
  return <ToastStoreContext.Provider value={activeStore}>{children}</ToastStoreContext.Provider>;
}

function useToastStore(hookName: string): ToastStore {
  const store = useContext(ToastStoreContext);
  if (store === null) {
    throw new Error(`${hookName} was called outside a ToastProvider; wrap the app (or the test) in <ToastProvider>.`);
  }
  return store;
}

export interface ToastActions {
  showToast: (options: ShowToastOptions) => string;
  dismissToast: (toastId: string) => void;
}

/**
 * Returns `showToast` and `dismissToast` for the nearest ToastProvider.
 *
 * @example
 * const { showToast } = useToast();
 * showToast({ message: "Added to your wishlist", tone: "success" });
 */
export function useToast(): ToastActions {
  const store = useToastStore("useToast");
  return useMemo(() => ({ showToast: store.showToast, dismissToast: store.dismissToast }), [store]);
}

export interface ToastViewportProps {
  /** Accessible name of each toast's dismiss button. */
  dismissLabel?: string;
  className?: string;
}

/**
 * The polite live region that renders the toasts. It is always in the DOM, even when empty,
 * because screen readers only announce changes to a live region that already exists.
 *
 * @example
 * <ToastViewport dismissLabel="Dismiss notification" />
 */
export function ToastViewport({ dismissLabel = "Dismiss notification", className }: ToastViewportProps) {
  const store = useToastStore("ToastViewport");
  const toasts = useSyncExternalStore(store.subscribe, store.getToasts, store.getToasts);
  return (
    <div role="status" aria-live="polite" className={joinClassNames("atelier-toast-viewport", className)}>
      {toasts.map((toast) => (
        <div key={toast.id} className={`atelier-toast atelier-toast--${toast.tone}`} data-state="open" data-tone={toast.tone}>
          <span className="atelier-toast__message">{toast.message}</span>
          <button type="button" className="atelier-toast__dismiss" aria-label={dismissLabel} onClick={() => store.dismissToast(toast.id)}>
            <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" width="12" height="12">
              <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
