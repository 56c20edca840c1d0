import { Outlet } from "react-router";
import { AuthGate } from "@atelier/auth/react";

export default function AccountLayout() {
  return (
    <AuthGate>
      <Outlet />
    </AuthGate>
  );
}
