import { useEffect, useState } from "react";
import { Spinner } from "@atelier/ui";
import { describeUserAgent } from "./describe-user-agent.ts";
import { securityEventsClient } from "./security-events-client.ts";
import { describeSecurityEvent, type SecurityEvents, type SecurityEventsClient } from "@atelier/site-api";

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** /account/security: what happened to the account, newest first (issue 18). */
export function SecurityEventsPage({ client = securityEventsClient }: { client?: SecurityEventsClient }) {
  const [history, setHistory] = useState<SecurityEvents | "loading" | { error: string }>("loading");
  useEffect(() => {
    let current = true;
    void client.loadSecurityEvents().then((result) => {
      if (current) setHistory(result.status === "ok" ? result.data : { error: result.message });
    });
    return () => {
      current = false;
    };
  }, [client]);

  if (history === "loading") return <Spinner label="Loading your account's history" />;
  if ("error" in history) return <p role="alert">{history.error}</p>;
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
