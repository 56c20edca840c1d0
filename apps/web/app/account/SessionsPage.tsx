import { useFetcher } from "react-router";
import * as v from "valibot";
import { Badge, Button } from "@atelier/ui";
import { errorsByParam, type AllauthClient, type UserSession } from "@atelier/auth";
import { FormGeneralErrors } from "./AccountFormField.tsx";
import { AccountPage } from "./AccountPage.tsx";
import { useAccountSettings } from "./auth-hooks.ts";
import { describeUserAgent } from "./describe-user-agent.ts";
import { UNEXPECTED_FAILURE_MESSAGE } from "./use-allauth-form.ts";

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const formatSeconds = (seconds: number) => dateTimeFormat.format(new Date(seconds * 1000));

const SESSIONS_TITLE = "Sessions";
const SESSIONS_LEAD = "The browsers and devices signed in to your account.";

/** What the sessions page lists: every session of the account, this one included. */
export interface SessionsData {
  sessions: UserSession[];
}

/**
 * The sessions page's `clientLoader` (routes/account/sessions.tsx), a plain function so tests call it with a fake
 * client. A signed-out visitor's 401 lists nothing: the page is not shown to them (`ProtectedRoute` opens the login
 * modal), and a sign-in reloads the page.
 */
export async function loadSessions(client: Pick<AllauthClient, "listSessions">): Promise<SessionsData> {
  const result = await client.listSessions();
  return { sessions: result.status === 200 ? result.data : [] };
}

/** What ending sessions answered: the sentences to show above the button, none when it worked, and how many ended. */
export interface EndSessionsOutcome {
  errors: string[];
  ended: number;
}

const endSessionsRequestSchema = v.object({ sessionIds: v.array(v.union([v.number(), v.string()])) });

/**
 * The sessions page's `clientAction`: ends the sessions the page posted (`{ sessionIds }` as JSON); the router then
 * runs the loader again, so the list shows what is left.
 */
export async function endSessionsFromRequest(client: Pick<AllauthClient, "endSessions">, request: Request): Promise<EndSessionsOutcome> {
  const { sessionIds } = v.parse(endSessionsRequestSchema, await request.json());
  try {
    const result = await client.endSessions({ sessionIds });
    // As useAllauthForm: errors naming a field have no field here, so only the general ones are shown.
    if (result.status === 200) return { errors: [], ended: sessionIds.length };
    return { errors: errorsByParam("errors" in result ? result.errors : undefined).general, ended: 0 };
  } catch (error) {
    console.error(error);
    return { errors: [UNEXPECTED_FAILURE_MESSAGE], ended: 0 };
  }
}

/** Shown while the sessions load on a first visit (the route's `HydrateFallback`). */
export function SessionsLoading() {
  return (
    <AccountPage title={SESSIONS_TITLE} lead={SESSIONS_LEAD}>
      <p>Loading your sessions…</p>
      <Button disabled>Log out elsewhere</Button>
    </AccountPage>
  );
}

/** /account/sessions: the account's sessions from the route's loader; ending some posts to the route's action. */
export function SessionsPage({ data }: { data: SessionsData }) {
  const { trackSessionActivity } = useAccountSettings();
  const fetcher = useFetcher<EndSessionsOutcome>();
  const busy = fetcher.state !== "idle";
  // A new request clears the previous one's errors, as the other account forms do.
  const errors = fetcher.state === "submitting" ? [] : (fetcher.data?.errors ?? []);
  const ended = fetcher.state === "idle" ? (fetcher.data?.ended ?? 0) : 0;
  const otherSessions = data.sessions.filter((session) => !session.is_current);
  const endSessions = (sessionIds: Array<UserSession["id"]>) => void fetcher.submit({ sessionIds }, { method: "post", encType: "application/json" });

  return (
    <AccountPage title={SESSIONS_TITLE} lead={SESSIONS_LEAD}>
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
          {data.sessions.map((session) => (
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
                  <Button size="small" variant="secondary" disabled={busy} onClick={() => endSessions([session.id])}>
                    End
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormGeneralErrors errors={errors} />
      {/* The row going away is easy to miss, on a phone above all: the page says what happened. */}
      {ended > 0 ? <p role="status">{ended === 1 ? "The session was ended: that browser is signed out." : `${ended} sessions were ended: those browsers are signed out.`}</p> : null}
      {/* Spec: disabled with one other session or none; a single other session has its own End button (decision 0013). */}
      <Button disabled={otherSessions.length <= 1 || busy} onClick={() => endSessions(otherSessions.map((session) => session.id))}>
        Log out elsewhere
      </Button>
    </AccountPage>
  );
}
