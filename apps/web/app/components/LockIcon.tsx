/** A padlock drawn in the text colour: the mark of something a plan unlocks (no emoji font is assumed). */
export function LockIcon() {
  return (
    <svg className="lock-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="2.5" y="7" width="11" height="8" rx="1.5" fill="currentColor" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
