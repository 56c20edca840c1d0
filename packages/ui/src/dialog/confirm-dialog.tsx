import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "../button/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "./dialog";

export interface ConfirmDialogProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** An element that opens the dialog (wrapped with `asChild`), e.g. `<Button>Delete</Button>`. */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Called when the confirm button is pressed. The dialog stays open: close it via `open` once the call succeeds. */
  onConfirm: () => void;
  /** While `true` the confirm button is disabled and marked `aria-busy`, so a slow call cannot be sent twice. */
  confirmPending?: boolean;
  /** Replaces the confirm label while pending, e.g. "Deleting…". */
  confirmPendingLabel?: string;
  confirmVariant?: ButtonVariant;
  /**
   * Where focus goes when the dialog closes. Without a `trigger` Radix has nothing to return to; call
   * `event.preventDefault()` and focus the control that opened the dialog.
   */
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * A yes/no question in an `alertdialog`: Cancel comes first and closes, Confirm calls `onConfirm`.
 *
 * @example
 * <ConfirmDialog open={open} onOpenChange={setOpen} title="Delete this painting?" confirmLabel="Delete"
 *   cancelLabel="Keep it" onConfirm={deletePainting} confirmPending={deleting} />
 */
export function ConfirmDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel = "Confirm",
  cancelLabel = "Cancel",
  onConfirm,
  confirmPending = false,
  confirmPendingLabel,
  confirmVariant = "primary",
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      {trigger === undefined ? null : <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent
        role="alertdialog"
        title={title}
        description={description}
        closeButtonVisibility="hidden"
        className="atelier-dialog--confirm"
        // An alert dialog asks for an explicit answer, so a stray click outside must not dismiss it.
        onPointerDownOutside={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <div className="atelier-dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">{cancelLabel}</Button>
          </DialogClose>
          <Button
            variant={confirmVariant}
            disabled={confirmPending}
            aria-busy={confirmPending}
            data-state={confirmPending ? "pending" : "idle"}
            onClick={onConfirm}
          >
            {confirmPending && confirmPendingLabel !== undefined ? confirmPendingLabel : confirmLabel}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
