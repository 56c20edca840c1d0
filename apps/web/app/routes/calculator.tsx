import { Link } from "react-router";
import { ProtectedRoute } from "@atelier/auth/react";
import { AccountPage } from "../account/AccountPage.tsx";
import { accountPageMeta } from "../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Password changed");

/** Where a successful password change lands (spec 2.2); the spec does not say what it shows: see decision 0013. */
export default function CalculatorRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <AccountPage title="Password changed">
        <p role="status">Your password has been changed. Your other devices have been signed out; this one stays signed in.</p>
        <ul className="account-links">
          <li>
            <Link to="/dashboard">Back to your dashboard</Link>
          </li>
          <li>
            <Link to="/account/sessions">Review your sessions</Link>
          </li>
        </ul>
      </AccountPage>
    </ProtectedRoute>
  );
}
