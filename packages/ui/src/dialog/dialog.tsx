import * as DialogPrimitive from "@radix-ui/react-dialog";
import type { ComponentPropsWithRef, ReactNode } from "react";
import { joinClassNames } from "../class-names";

export type DialogProps = DialogPrimitive.DialogProps;

/**
 * The dialog's state holder (Radix `Dialog.Root`): pass `open`/`onOpenChange` to control it, or `defaultOpen`.
 *
 * @example
 * <Dialog><DialogTrigger asChild><Button>Details</Button></DialogTrigger><DialogContent title="Details">…</DialogContent></Dialog>
 */
export function Dialog(props: DialogProps) {
  return <DialogPrimitive.Root {...props} />;
}

export type DialogTriggerProps = ComponentPropsWithRef<typeof DialogPrimitive.Trigger>;

/**
 * Opens the dialog; use `asChild` to make a Button the trigger. Focus returns here on close.
 *
 * @example
 * <DialogTrigger asChild><Button variant="secondary">Enlarge</Button></DialogTrigger>
 */
export function DialogTrigger(props: DialogTriggerProps) {
  return <DialogPrimitive.Trigger {...props} />;
}

export type DialogCloseProps = ComponentPropsWithRef<typeof DialogPrimitive.Close>;

/**
 * Closes the dialog; use `asChild` to make a Button close it.
 *
 * @example
 * <DialogClose asChild><Button variant="ghost">Done</Button></DialogClose>
 */
export function DialogClose(props: DialogCloseProps) {
  return <DialogPrimitive.Close {...props} />;
}

export interface DialogContentProps extends Omit<ComponentPropsWithRef<typeof DialogPrimitive.Content>, "title"> {
  /** Rendered as the dialog's heading and accessible name. */
  title: ReactNode;
  /** Rendered under the title and used as the accessible description. */
  description?: ReactNode;
  /** Accessible name of the × button. */
  closeLabel?: string;
  /** Hide the × button, e.g. when the content has its own Cancel button. */
  closeButtonVisibility?: "visible" | "hidden";
}

/**
 * The modal panel, rendered in a portal over a dimmed overlay. Traps focus, closes on Escape and on a click outside.
 * `data-state` is `"open"` or `"closed"`.
 *
 * @example
 * <DialogContent title="Evening on the lake" description="Oil on canvas, 2024" closeLabel="Close">…</DialogContent>
 */
export function DialogContent({
  title,
  description,
  closeLabel = "Close",
  closeButtonVisibility = "visible",
  className,
  children,
  ...contentProps
}: DialogContentProps) {
  // Radix warns when there is no description unless aria-describedby is explicitly undefined.
  const describedByOverride = description === undefined ? { "aria-describedby": undefined } : {};
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="atelier-dialog__overlay" />
      <DialogPrimitive.Content className={joinClassNames("atelier-dialog", className)} {...describedByOverride} {...contentProps}>
        <DialogPrimitive.Title className="atelier-dialog__title">{title}</DialogPrimitive.Title>
        {description === undefined ? null : (
          <DialogPrimitive.Description className="atelier-dialog__description">{description}</DialogPrimitive.Description>
        )}
        {children}
        {closeButtonVisibility === "visible" ? (
          <DialogPrimitive.Close className="atelier-dialog__close" aria-label={closeLabel}>
            <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" width="16" height="16">
              <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
            </svg>
          </DialogPrimitive.Close>
        ) : null}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
