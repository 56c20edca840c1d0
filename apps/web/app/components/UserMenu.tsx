import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Button, ConfirmDialog } from "@atelier/ui";
import { useAuthStatus } from "@atelier/auth/react";
import { authClient } from "../lib/auth.ts";
import { create } from "zustand";
import { useLoginModalStore } from "../login-modal/login-modal-store.ts";

const useSignOutDialogStore = create<{ state: "open" | "closed"; setState: (state: "open" | "closed") => void }>((set) => ({
  state: "closed",
  setState: (state) => set({ state }),
}));

/**
 * Sign out behind a confirmation, its button disabled while the call runs (spec 4.5); then home. Rendered once at
 * the root, not inside the menu: the menu turns into 'Log in' as soon as the sign-out lands, and the dialog must
 * outlive it to close cleanly.
 */
export function SignOutDialog() {
  const { state, setState } = useSignOutDialogStore();
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  const signOut = async () => {
    setPending(true);
    try {
      await authClient.logout();
      setState("closed");
      navigate("/");
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
    />
  );
}

/** Log in when signed out; the user menu (Dashboard, Settings, Sign out) when signed in (spec 2.1). */
export function UserMenu({ placement }: { placement: "header" | "mobile" }) {
  const { isAuthenticated, user } = useAuthStatus();
  const openLoginModal = useLoginModalStore((state) => state.open);
  const [menuState, setMenuState] = useState<"open" | "closed">("closed");
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const location = useLocation();

  useEffect(() => setMenuState("closed"), [location.pathname]);
  useEffect(() => {
    if (menuState !== "open") return;
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setMenuState("closed");
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === "Escape" && setMenuState("closed");
    document.addEventListener("mousedown", closeOnOutsideClick);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("mousedown", closeOnOutsideClick);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [menuState]);

  if (!isAuthenticated) {
    return (
      <Button variant="ghost" size="small" className={placement === "header" ? "site-header__login" : undefined} onClick={() => openLoginModal()}>
        Log in
      </Button>
    );
  }

  const links = (
    <>
      <li>
        <Link to="/dashboard" className="site-nav__link">
          Dashboard
        </Link>
      </li>
      <li>
        <Link to="/account/email" className="site-nav__link">
          Settings
        </Link>
      </li>
      <li>
        <Button
          variant="ghost"
          size="small"
          onClick={() => {
            setMenuState("closed");
            useSignOutDialogStore.getState().setState("open");
          }}
        >
          Sign out
        </Button>
      </li>
    </>
  );

  if (placement === "mobile") return <ul className="site-mobile-menu__list">{links}</ul>;

  return (
    <div className="user-menu" ref={containerRef}>
      <Button variant="secondary" size="small" aria-expanded={menuState === "open"} aria-controls={menuId} onClick={() => setMenuState((state) => (state === "open" ? "closed" : "open"))}>
        {user?.display ?? "Account"}
      </Button>
      <ul id={menuId} className="user-menu__list" hidden={menuState === "closed"}>
        {links}
      </ul>
    </div>
  );
}
