/**
 * The element that has focus now, to give it back when a dialog opened from a store closes: such dialogs have no
 * Radix trigger, and the control that opened them may be gone by then (the user menu closes as its dialog opens).
 */
export function currentFocusOpener(): HTMLElement | null {
  if (typeof document === "undefined") return null;
  const element = document.activeElement;
  return element instanceof HTMLElement && element !== document.body ? element : null;
}

/** Focuses the first candidate that is still in the page and visible; true when one took the focus. */
export function focusFirstVisible(...candidates: ReadonlyArray<Element | null | undefined>): boolean {
  for (const candidate of candidates) {
    if (candidate instanceof HTMLElement && candidate.isConnected && candidate.getClientRects().length > 0) {
      candidate.focus();
      if (document.activeElement === candidate) return true;
    }
  }
  return false;
}

/** The header's own account control (the user menu's button, or Log in), else the mobile menu's button. */
export function headerAccountControls(): Array<Element | null> {
  return [document.querySelector(".user-menu__button"), document.querySelector(".site-header__account button"), document.querySelector(".site-header__menu-button")];
}
