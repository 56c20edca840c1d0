import type { ComponentPropsWithRef } from "react";
import { joinClassNames } from "../class-names";

export type SpinnerSize = "small" | "medium" | "large";

export interface SpinnerProps extends Omit<ComponentPropsWithRef<"span">, "role" | "children"> {
  /** Announced to screen readers and hidden visually. */
  label?: string;
  size?: SpinnerSize;
}

/**
 * A loading indicator in a `role="status"` live region. With reduced motion it pulses instead of spinning.
 *
 * @example
 * {isLoading ? <Spinner label="Loading paintings" /> : <Gallery />}
 */
export function Spinner({ label = "Loading", size = "medium", className, ...spanProps }: SpinnerProps) {
  return (
    <span role="status" className={joinClassNames("atelier-spinner", `atelier-spinner--${size}`, className)} {...spanProps}>
      <span className="atelier-spinner__circle" aria-hidden="true" />
      <span className="atelier-visually-hidden">{label}</span>
    </span>
  );
}
