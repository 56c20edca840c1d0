import { create } from "zustand";
import { ensureAuthenticationStatusLoaded } from "../lib/auth.ts";
import { currentFocusOpener } from "../lib/focus-return.ts";
import { useSignOutDialogStore } from "../components/sign-out-dialog-store.ts";

export type LoginModalStep = "initial" | "email" | "passwordReset" | "loginCode" | "confirmLoginCode";
export type LoginModalEmailMode = "login" | "signup";

export interface LoginModalOpenOptions {
  /** The initial step's heading and text; the study screens use 'Keep Up the Great Work!'. */
  title?: string;
  description?: string;
  /** A protected page the visitor asked for: closing the modal without signing in goes to /account/login?next=. */
  protectedPath?: string;
  /** What to do after a successful sign-in; the default reloads the page (spec 4.2). */
  afterLogin?: "reload";
}

interface LoginModalState {
  state: "open" | "closed";
  step: LoginModalStep;
  emailMode: LoginModalEmailMode;
  options: LoginModalOpenOptions;
  /** The control that had focus when the modal opened; focus returns there when it closes. */
  opener: HTMLElement | null;
  open: (options?: LoginModalOpenOptions) => void;
  close: () => void;
  goToStep: (step: LoginModalStep, emailMode?: LoginModalEmailMode) => void;
}

export const DEFAULT_LOGIN_MODAL_TITLE = "Log in or sign up";
export const DEFAULT_LOGIN_MODAL_DESCRIPTION = "Sign in to keep your progress and reach your account.";

export const useLoginModalStore = create<LoginModalState>((set) => ({
  state: "closed",
  step: "initial",
  emailMode: "login",
  options: {},
  opener: null,
  open: (options = {}) => {
    // The modal's steps depend on the server's settings (sign-in by code), loaded lazily for anonymous visitors.
    ensureAuthenticationStatusLoaded();
    set({ state: "open", step: "initial", emailMode: "login", options, opener: currentFocusOpener() });
  },
  close: () => set({ state: "closed" }),
  goToStep: (step, emailMode) => set((current) => ({ step, emailMode: emailMode ?? current.emailMode })),
}));

/**
 * What `ProtectedRoute` calls for a signed-out visitor: offer the login modal first (spec 2.1). Not while signing out:
 * the page is signed out for a moment before the sign-out sends the visitor home, and the modal flashed up there (and
 * took the focus from the next control clicked); nor once the visitor has left the page.
 */
export function openLoginModalForProtectedPage(protectedPath: string): void {
  if (useSignOutDialogStore.getState().state === "open") return;
  if (window.location.pathname !== protectedPath.split(/[?#]/)[0]) return;
  useLoginModalStore.getState().open({ protectedPath });
}
