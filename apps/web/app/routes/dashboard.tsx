import { Link } from "react-router";
import { Card, CardBody, CardTitle } from "@atelier/ui";
import { ProtectedRoute, useAuthStatus } from "@atelier/auth/react";
import { AccountPage } from "../account/AccountPage.tsx";
import { accountPageMeta } from "../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../login-modal/login-modal-store.ts";
import { billingClient } from "../billing/billing-client.ts";
import { SubscriptionStatusCard } from "../billing/SubscriptionStatusCard.tsx";
import { loadSubscriptionStatus, type LoadedSubscriptionStatus } from "../billing/subscription-status.ts";
import { loadForSignedInUser } from "../lib/guarded-load.ts";
import { authStore } from "../lib/auth.ts";
import type { Route } from "./+types/dashboard";

export const meta = accountPageMeta("Dashboard");

/** The subscription card's status; a signed-out visitor gets the login modal and makes no status call. */
export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadSubscriptionStatus(billingClient));
}

function DashboardContent({ subscription }: { subscription: LoadedSubscriptionStatus | undefined }) {
  const { user } = useAuthStatus();
  return (
    <AccountPage title="Dashboard" lead={user ? `Welcome, ${user.display}.` : undefined}>
      <div className="dashboard-grid">
        <Card>
          <CardBody>
            <CardTitle headingLevel={2}>Your account</CardTitle>
            <dl className="account-facts">
              <dt>E-mail</dt>
              <dd>{user?.email ?? "–"}</dd>
              <dt>Password</dt>
              <dd>{user?.has_usable_password === false ? "Not set" : "Set"}</dd>
            </dl>
          </CardBody>
        </Card>
        <SubscriptionStatusCard subscription={subscription} />
        <Card>
          <CardBody>
            <CardTitle headingLevel={2}>Flashcards</CardTitle>
            <p>Study Swedish with sentence pairs from film subtitles.</p>
            <p>
              <Link to="/upload-subtitles">Your subtitle groups</Link>
            </p>
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <CardTitle headingLevel={2}>Settings</CardTitle>
            <ul className="account-links">
              <li>
                <Link to="/account/email">E-mail addresses</Link>
              </li>
              <li>
                <Link to="/account/password/change">{user?.has_usable_password === false ? "Set a password" : "Change password"}</Link>
              </li>
              <li>
                <Link to="/account/sessions">Sessions</Link>
              </li>
              <li>
                <Link to="/account/2fa">Two-factor authentication</Link>
              </li>
              <li>
                <Link to="/account/providers">Third-party accounts</Link>
              </li>
            </ul>
          </CardBody>
        </Card>
      </div>
    </AccountPage>
  );
}

/**
 * A first visit shows the dashboard at once, its subscription card loading. Signed out it shows nothing: the route's
 * `ProtectedRoute` opens the login modal once the loader is done (a second guard here would open it twice).
 */
export function HydrateFallback() {
  const { loadState, isAuthenticated } = useAuthStatus();
  return loadState === "ready" && isAuthenticated ? <DashboardContent subscription={undefined} /> : null;
}

export default function DashboardRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <DashboardContent subscription={loaderData.state === "loaded" ? loaderData.data : undefined} />
    </ProtectedRoute>
  );
}
