import { useEffect } from "react";
import { Outlet } from "react-router";
import { AuthGate } from "@atelier/auth/react";
import { ensureAuthenticationStatusLoaded } from "../lib/auth.ts";

export default function AccountLayout() {
  // Public pages only ask for the status of browsers that signed in before; account screens always need it.
  useEffect(ensureAuthenticationStatusLoaded, []);
  return (
    <AuthGate>
      <Outlet />
    </AuthGate>
  );
}
