import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { AUTH_CHANGE_EVENT, redirectForAuthChange } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { ConfirmDialog } from "@atelier/ui";
import { focusFirstVisible, headerAccountControls } from "../lib/focus-return.ts";
import { atelierAuthRoutes } from "../lib/auth-routes.ts";
import { useSignOutDialogStore } from "./sign-out-dialog-store.ts";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";

/**
 * Sign out behind a confirmation, its button disabled while the call runs (spec 4.5); then home, or the upload page
 * from a study configuration or session page (spec 2.1), as the root's redirector would decide. Rendered once at
 * the root, not inside the menu: the menu turns into 'Log in' as soon as the sign-out lands, and the dialog must
 * outlive it to close cleanly.
 */
export function SignOutDialog() {
  const client = useAuthClient();
  const { state, setState } = useSignOutDialogStore();
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = async () => {
    setPending(true);
    try {
      await client.logout();
      setState("closed");
      navigate(redirectForAuthChange(AUTH_CHANGE_EVENT.LOGOUT, { currentPath: location.pathname, response: undefined, routes: atelierAuthRoutes }) ?? "/");
    } catch (error) {
      console.error(error);
      window.alert("Signing out failed. Please try again.");
    } finally {
      setPending(false);
    }
  };
  return (
    <ConfirmDialog
      open={state === "open"}
      onOpenChange={(open) => setState(open ? "open" : "closed")}
      title="Sign out?"
      description="You will need to sign in again to reach your account."
      confirmLabel="Sign out"
      confirmPendingLabel="Signing out..."
      confirmPending={pending}
      onConfirm={signOut}
      // The menu item that opened the dialog is hidden with its menu: focus goes back to the menu's button.
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        // A login modal opened meanwhile keeps the focus: taking it away would close that modal.
        if (useLoginModalStore.getState().state === "open") return;
        focusFirstVisible(...headerAccountControls());
      }}
    />
  );
}
