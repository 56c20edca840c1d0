import { useCallback, useEffect, useState } from "react";
import { Badge, Button } from "@atelier/ui";
import type { UserSession } from "@atelier/auth";
import { ProtectedRoute } from "@atelier/auth/react";
import { FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAccountSettings } from "../../account/auth-hooks.ts";
import { describeUserAgent } from "../../account/describe-user-agent.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { authClient } from "../../lib/auth.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Sessions");

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const formatSeconds = (seconds: number) => dateTimeFormat.format(new Date(seconds * 1000));

function SessionList() {
  const { trackSessionActivity } = useAccountSettings();
  const [sessions, setSessions] = useState<UserSession[] | undefined>(undefined);
  const form = useAllauthForm();

  const reload = useCallback(async () => {
    const result = await authClient.listSessions();
    if (result.status === 200) setSessions(result.data as UserSession[]);
  }, []);

  useEffect(() => {
    reload().catch((error: unknown) => console.error(error));
  }, [reload]);

  const otherSessions = sessions?.filter((session) => !session.is_current) ?? [];

  const endSessions = async (sessionIds: Array<UserSession["id"]>) => {
    const result = await form.submit(() => authClient.endSessions({ sessionIds }));
    if (result?.status === 200 && Array.isArray(result.data)) setSessions(result.data as UserSession[]);
  };

  return (
    <AccountPage title="Sessions" lead="The browsers and devices signed in to your account.">
      {sessions === undefined ? <p>Loading your sessions…</p> : null}
      {sessions ? (
        <table className="account-table">
          <caption className="atelier-visually-hidden">Your sessions</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              {trackSessionActivity ? <th scope="col">Last seen</th> : null}
              <th scope="col">Address</th>
              <th scope="col">Browser</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id} data-current={session.is_current ? "true" : "false"}>
                <td data-label="Started" className="account-table__date">{formatSeconds(session.created_at)}</td>
                {trackSessionActivity ? <td data-label="Last seen" className="account-table__date">{session.last_seen_at ? formatSeconds(session.last_seen_at) : "–"}</td> : null}
                <td data-label="Address">{session.ip}</td>
                <td className="account-table__user-agent" data-label="Browser" title={session.user_agent}>
                  {describeUserAgent(session.user_agent)}
                </td>
                <td className="account-table__actions" data-label="Actions">
                  {session.is_current ? (
                    <Badge tone="success">This session</Badge>
                  ) : (
                    <Button size="small" variant="secondary" disabled={form.submitting} onClick={() => endSessions([session.id])}>
                      End
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <FormGeneralErrors errors={form.errors.general} />
      {/* Spec: disabled with one other session or none; a single other session has its own End button (decision 0013). */}
      <Button disabled={otherSessions.length <= 1 || form.submitting} onClick={() => endSessions(otherSessions.map((session) => session.id))}>
        Log out elsewhere
      </Button>
    </AccountPage>
  );
}

export default function SessionsRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <SessionList />
    </ProtectedRoute>
  );
}
