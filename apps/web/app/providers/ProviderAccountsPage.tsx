import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Button, Spinner } from "@atelier/ui";
import { flowPaths, type AllauthClient, type ProviderAccount, type ProviderRedirectInput } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { useAllauthForm } from "../account/use-allauth-form.ts";
import { ProviderButtons, useRedirectProviders } from "./ProviderButtons.tsx";
import { CONNECTED_OTHER_MESSAGE, PROVIDER_ACCOUNTS_PATH, PROVIDER_FAILURE_MESSAGE } from "./provider-messages.ts";

export const PROVIDER_ACCOUNTS_LOAD_FAILED_MESSAGE = "Your third-party accounts could not be loaded. Please reload the page.";
export const DISCONNECT_FAILED_MESSAGE = "The account could not be disconnected. Please try again.";
export const REAUTHENTICATION_BEFORE_CONNECT_MESSAGE = "For your security, please confirm it is you before connecting another account, then connect it again.";

/** What the accounts page lists: the connected third-party accounts, or that they failed to load. */
export type ProviderAccountsData = { state: "ready"; accounts: ProviderAccount[] } | { state: "failed" };

/** `GET account/providers`: the `clientLoader` of /account/providers, a plain function so tests call it with a fake client. */
export async function loadProviderAccounts(client: Pick<AllauthClient, "listProviderAccounts">): Promise<ProviderAccountsData> {
  try {
    const result = await client.listProviderAccounts();
    return result.status === 200 ? { state: "ready", accounts: result.data } : { state: "failed" };
  } catch (error) {
    console.error(error);
    return { state: "failed" };
  }
}

const TITLE = "Third-party accounts";
const LEAD = "Accounts at other services that you can sign in with.";

/** Shown while the accounts load on a first visit (the route's `HydrateFallback`). */
export function ProviderAccountsLoading() {
  return (
    <AccountPage title={TITLE} lead={LEAD}>
      <Spinner label="Loading your third-party accounts" />
    </AccountPage>
  );
}

export interface ProviderAccountsPageProps {
  data: ProviderAccountsData;
  /** Passed to the connect buttons; tests pass a spy (happy-dom does not navigate). */
  startRedirect?: (input: ProviderRedirectInput) => void;
}

/** The reason a connection came back with `?error=` (allauth appends it to /account/providers). */
function ConnectFailure({ errorCode }: { errorCode: string }) {
  const reauthenticatePath = `${String(flowPaths.reauthenticate)}?next=${encodeURIComponent(PROVIDER_ACCOUNTS_PATH)}`;
  return (
    <div role="alert" className="form-general-errors" data-error-code={errorCode}>
      {errorCode === "connected_other" ? <p>{CONNECTED_OTHER_MESSAGE}</p> : null}
      {errorCode === "reauthentication_required" ? (
        <p>
          {REAUTHENTICATION_BEFORE_CONNECT_MESSAGE} <Link to={reauthenticatePath}>Confirm it is you</Link>
        </p>
      ) : null}
      {errorCode !== "connected_other" && errorCode !== "reauthentication_required" ? <p>{PROVIDER_FAILURE_MESSAGE}</p> : null}
    </div>
  );
}

/**
 * /account/providers: the connected third-party accounts of its route's loader with Disconnect, and a button per
 * configured provider to connect another. A disconnect that needs a fresh authentication answers 401; the root
 * redirector then opens the reauthentication page and comes back here, as for e-mail changes.
 */
export function ProviderAccountsPage({ data, startRedirect }: ProviderAccountsPageProps) {
  const client = useAuthClient();
  const [searchParams] = useSearchParams();
  const connectErrorCode = searchParams.get("error");
  const configuredProviders = useRedirectProviders();
  // A disconnect answers with the accounts left: the list starts from the loader's, and starts again from a newer one.
  const [load, setLoad] = useState(data);
  const [loadedFrom, setLoadedFrom] = useState(data);
  if (loadedFrom !== data) {
    setLoadedFrom(data);
    setLoad(data);
  }
  const [notice, setNotice] = useState<string | null>(null);
  const form = useAllauthForm(DISCONNECT_FAILED_MESSAGE);

  const disconnect = async (account: ProviderAccount) => {
    setNotice(null);
    const result = await form.submit(() => client.disconnectProviderAccount({ provider: account.provider.id, account: account.uid }));
    if (result?.status === 200) {
      setLoad({ state: "ready", accounts: result.data });
      setNotice(`Your ${account.provider.name} account ${account.display} was disconnected.`);
    } else if (result && result.status !== 401 && !result.errors?.length) {
      form.setErrors({ byParam: {}, general: [DISCONNECT_FAILED_MESSAGE] });
    }
  };

  return (
    <AccountPage title={TITLE} lead={LEAD}>
      {connectErrorCode !== null ? <ConnectFailure errorCode={connectErrorCode} /> : null}
      {load.state === "failed" ? <p role="alert">{PROVIDER_ACCOUNTS_LOAD_FAILED_MESSAGE}</p> : null}
      {load.state === "ready" && load.accounts.length === 0 ? <p>No third-party account is connected yet.</p> : null}
      {load.state === "ready" && load.accounts.length > 0 ? (
        <table className="account-table">
          <caption className="atelier-visually-hidden">Your connected third-party accounts</caption>
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Account</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {load.accounts.map((account) => (
              <tr key={`${account.provider.id}:${account.uid}`} data-provider={account.provider.id}>
                <td data-label="Provider">{account.provider.name}</td>
                <td data-label="Account">{account.display}</td>
                <td className="account-table__actions" data-label="Actions">
                  <Button size="small" variant="secondary" disabled={form.submitting} aria-label={`Disconnect ${account.display} (${account.provider.name})`} onClick={() => disconnect(account)}>
                    Disconnect
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <FormGeneralErrors errors={[...form.errors.general, ...Object.values(form.errors.byParam).flat()]} />
      {notice ? <p role="status">{notice}</p> : null}
      {configuredProviders.length > 0 ? (
        <>
          <h2>Connect another account</h2>
          <ProviderButtons process="connect" startRedirect={startRedirect} />
        </>
      ) : null}
    </AccountPage>
  );
}
