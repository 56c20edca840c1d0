import type { ComponentPropsWithRef } from "react";
import { joinClassNames } from "../class-names";

export type ButtonVariant = "primary" | "secondary" | "ghost";
export type ButtonSize = "small" | "medium" | "large";

interface ButtonAppearanceProps {
  /** Visual weight: `primary` for the one main action, `secondary` beside it, `ghost` for quiet actions. */
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export interface ButtonProps extends ComponentPropsWithRef<"button">, ButtonAppearanceProps {}

export interface ButtonLinkProps extends ComponentPropsWithRef<"a">, ButtonAppearanceProps {}

function buttonClassName(variant: ButtonVariant, size: ButtonSize, className: string | undefined): string {
  return joinClassNames("atelier-button", `atelier-button--${variant}`, `atelier-button--${size}`, className);
}

/**
 * A native `<button>`; `type` defaults to `"button"` so it never submits a form by accident.
 *
 * @example
 * <Button variant="secondary" size="small" onClick={save}>Save</Button>
 */
export function Button({ variant = "primary", size = "medium", type = "button", className, ...buttonProps }: ButtonProps) {
  return <button type={type} className={buttonClassName(variant, size, className)} {...buttonProps} />;
}

/**
 * An `<a>` that looks like a Button, for navigation such as external purchase links.
 * With `target="_blank"` it adds `rel="noopener"` unless you pass your own `rel`.
 *
 * @example
 * <ButtonLink href="https://shop.example/painting-12" target="_blank">I want this!</ButtonLink>
 */
export function ButtonLink({ variant = "primary", size = "medium", className, target, rel, ...anchorProps }: ButtonLinkProps) {
  const relationship = rel ?? (target === "_blank" ? "noopener" : undefined);
  return <a className={buttonClassName(variant, size, className)} target={target} rel={relationship} {...anchorProps} />;
}
