import { Link, useNavigate } from "react-router";
import { Badge, Button, Card, CardBody, CardTitle, Spinner } from "@atelier/ui";
import { formatBillingDate } from "./billing-meta.ts";
import { daysLeftUntil, formatDaysLeft } from "./plan-card-state.ts";
import type { LoadedSubscriptionStatus } from "./subscription-status.ts";

export interface SubscriptionStatusCardProps {
  /** From the dashboard's loader (`loadSubscriptionStatus`); undefined while it loads on a first visit. */
  subscription: LoadedSubscriptionStatus | undefined;
  /** The clock for days left; tests pass a fixed one. */
  now?: () => number;
}

/** The dashboard's 'Subscription' card (spec §2.2): cleared, so showing no subscription, when the call fails (spec §8). */
export function SubscriptionStatusCard({ subscription, now = Date.now }: SubscriptionStatusCardProps) {
  const loadState = subscription?.loadState ?? "loading";
  const status = subscription?.status;
  const navigate = useNavigate();
  const hasSubscription = status !== undefined && status.has_subscription;

  return (
    <Card className="subscription-card" aria-labelledby="subscription-card-heading" data-state={loadState}>
      <CardBody>
        <CardTitle headingLevel={2} id="subscription-card-heading">
          Subscription
        </CardTitle>
        {status === undefined ? (
          <Spinner label="Loading your subscription" size="small" />
        ) : hasSubscription ? (
          <>
            <dl className="account-facts">
              <dt>Plan</dt>
              <dd>{status.plan ?? "–"}</dd>
              <dt>Status</dt>
              <dd>{status.is_active ? <Badge tone="success">Active</Badge> : <Badge>Not active</Badge>}</dd>
              {status.expires_at === null ? null : (
                <>
                  <dt>{status.is_active ? (status.cancel_at_period_end ? "Ends" : "Renews") : "Ended"}</dt>
                  <dd>
                    {formatBillingDate(status.expires_at)}
                    {status.is_active ? ` (${formatDaysLeft(daysLeftUntil(status.expires_at, now()))})` : null}
                  </dd>
                </>
              )}
            </dl>
            <div className="billing-actions">
              <Button size="small" onClick={() => void navigate("/stripe-portal-session")}>
                Manage billing
              </Button>
              <Link to="/pricing">See plans</Link>
            </div>
          </>
        ) : (
          <>
            <p>You have no subscription.</p>
            <div className="billing-actions">
              <Link to="/pricing">See plans</Link>
            </div>
          </>
        )}
      </CardBody>
    </Card>
  );
}
