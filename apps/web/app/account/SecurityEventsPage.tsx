import { Spinner } from "@atelier/ui";
import { describeUserAgent } from "./describe-user-agent.ts";
import { describeSecurityEvent, type SecurityEventsClient, type SecurityEventsResult } from "@atelier/site-api";

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** What the history page shows: the events, or the sentence saying they could not be loaded. */
export type SecurityEventsData = SecurityEventsResult;

/**
 * The history's `clientLoader` (routes/account/security.tsx), a plain function so tests call it with a fake client. A
 * signed-out visitor's 401 is an error like any other: the page is not shown to them (`ProtectedRoute` opens the login
 * modal), and a sign-in reloads the page.
 */
export function loadSecurityEvents(client: Pick<SecurityEventsClient, "loadSecurityEvents">): Promise<SecurityEventsData> {
  return client.loadSecurityEvents();
}

/** Shown while the history loads on a first visit (the route's `HydrateFallback`). */
export function SecurityEventsLoading() {
  return <Spinner label="Loading your account's history" />;
}

/** /account/security: what happened to the account, newest first (issue 18), from its route's loader data. */
export function SecurityEventsPage({ data }: { data: SecurityEventsData }) {
  if (data.status === "error") return <p role="alert">{data.message}</p>;
  const history = data.data;
  return (
    <div className="security-events">
      <p>
        Sign-ins, failed sign-ins and every change to how you sign in, from the last {history.retention_days} days. Something
        you do not recognise? Change your password and end your other sessions.
      </p>
      {history.events.length === 0 ? (
        <p>Nothing has happened to your account in that time.</p>
      ) : (
        <table className="account-table">
          <caption className="atelier-visually-hidden">Your account's history, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {history.events.map((event, index) => (
              <tr key={`${event.created_at}-${index}`} data-type={event.type}>
                <td data-label="When" className="account-table__date">
                  <time dateTime={event.created_at}>{dateTimeFormat.format(new Date(event.created_at))}</time>
                </td>
                <td data-label="What">{describeSecurityEvent(event)}</td>
                <td className="account-table__user-agent" data-label="Browser" title={event.user_agent ?? undefined}>
                  {event.user_agent ? describeUserAgent(event.user_agent) : "–"}
                </td>
                <td data-label="Address">{event.ip_address ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
