import type { ComponentPropsWithRef } from "react";
import { joinClassNames } from "../class-names";

export type BadgeTone = "neutral" | "success" | "danger";

export interface BadgeProps extends ComponentPropsWithRef<"span"> {
  tone?: BadgeTone;
}

/**
 * A short status label. `danger` is a solid red, like the red dot a gallery puts on a sold painting,
 * so it stays readable over a photograph.
 *
 * @example
 * <Badge tone="danger">Sold</Badge>
 */
export function Badge({ tone = "neutral", className, ...spanProps }: BadgeProps) {
  return <span className={joinClassNames("atelier-badge", `atelier-badge--${tone}`, className)} data-tone={tone} {...spanProps} />;
}
