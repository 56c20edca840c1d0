import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Badge, Button, Spinner } from "@atelier/ui";
import type { WebAuthnAuthenticator } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { FormGeneralErrors } from "../account/AccountFormField.tsx";
import { AccountPage } from "../account/AccountPage.tsx";
import { formatSeconds } from "./mfa-helpers.ts";
import { securityKeysOf, type AuthenticatorsData } from "./authenticators.ts";

export const RENAME_FAILED_MESSAGE = "The security key could not be renamed. Its previous name is back.";
export const DELETE_FAILED_MESSAGE = "The security key could not be removed. It is back in the list.";

function RenameForm({ securityKey, onRename, onCancel }: { securityKey: WebAuthnAuthenticator; onRename: (name: string) => void; onCancel: () => void }) {
  const [name, setName] = useState(securityKey.name);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (name.trim()) onRename(name.trim());
  };
  return (
    <form className="mfa-rename-form" onSubmit={handleSubmit}>
      <label className="atelier-visually-hidden" htmlFor={`security-key-name-${securityKey.id}`}>
        New name of {securityKey.name}
      </label>
      <input
        id={`security-key-name-${securityKey.id}`}
        value={name}
        onChange={(event) => setName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onCancel();
          }
        }}
        maxLength={255}
        required
        // The user just pressed Rename: typing goes to the name.
        autoFocus
      />
      <Button type="submit" size="small">
        Save
      </Button>
      <Button type="button" size="small" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

/** The page's frame: its heading and, below the list, the ways on. */
function SecurityKeysFrame({ children }: { children: ReactNode }) {
  return (
    <AccountPage title="Security keys" lead="Passkeys sign you in without a password; other security keys are a second step after it.">
      {children}
      <ul className="account-links">
        <li>
          <Link to="/account/2fa/webauthn/add">Add a security key</Link>
        </li>
        <li>
          <Link to="/account/2fa">Back to two-factor authentication</Link>
        </li>
      </ul>
    </AccountPage>
  );
}

/** Shown while the keys load on a first visit (the route's `HydrateFallback`). */
export function SecurityKeysLoading() {
  return (
    <SecurityKeysFrame>
      <Spinner label="Loading your security keys" />
    </SecurityKeysFrame>
  );
}

function keysOf(data: AuthenticatorsData): WebAuthnAuthenticator[] | undefined {
  return data.state === "ready" ? securityKeysOf(data.authenticators) : undefined;
}

/**
 * /account/2fa/webauthn: the security keys and passkeys, from its route's loader. Renaming and removing show at once
 * and are undone when the server refuses or cannot be reached (spec §4.3).
 */
export function SecurityKeyList({ data }: { data: AuthenticatorsData }) {
  const client = useAuthClient();
  // The add page's ceremony ends here: the page says it worked, as the row alone is easy to miss.
  const addedName = (useLocation().state as { securityKeyAdded?: unknown } | null)?.securityKeyAdded;
  // The list the user changes optimistically starts from the loader's, and starts again from a newer one.
  const [keys, setKeys] = useState(() => keysOf(data));
  const [loadedFrom, setLoadedFrom] = useState(data);
  if (loadedFrom !== data) {
    setLoadedFrom(data);
    setKeys(keysOf(data));
  }
  const [editingId, setEditingId] = useState<WebAuthnAuthenticator["id"] | undefined>(undefined);
  const [errors, setErrors] = useState<string[]>([]);

  const rename = async (securityKey: WebAuthnAuthenticator, name: string) => {
    setEditingId(undefined);
    setErrors([]);
    const previousName = securityKey.name;
    const setName = (newName: string) => setKeys((current) => current?.map((key) => (key.id === securityKey.id ? { ...key, name: newName } : key)));
    setName(name);
    try {
      const result = await client.renameWebAuthnAuthenticator({ id: securityKey.id, name });
      if (result.status === 200) {
        setKeys((current) => current?.map((key) => (key.id === securityKey.id ? result.data : key)));
        return;
      }
    } catch (error) {
      console.error(error);
    }
    setName(previousName);
    setErrors([RENAME_FAILED_MESSAGE]);
  };

  const remove = async (securityKey: WebAuthnAuthenticator) => {
    setErrors([]);
    const index = keys?.findIndex((key) => key.id === securityKey.id) ?? -1;
    setKeys((current) => current?.filter((key) => key.id !== securityKey.id));
    try {
      const result = await client.deleteWebAuthnAuthenticators({ ids: [securityKey.id] });
      if (result.status === 200) return;
    } catch (error) {
      console.error(error);
    }
    setKeys((current) => {
      if (!current || current.some((key) => key.id === securityKey.id)) return current;
      const restored = [...current];
      restored.splice(index < 0 ? restored.length : Math.min(index, restored.length), 0, securityKey);
      return restored;
    });
    setErrors([DELETE_FAILED_MESSAGE]);
  };

  return (
    <SecurityKeysFrame>
      {data.state === "failed" ? <p role="alert">Your security keys could not be loaded.</p> : null}
      <FormGeneralErrors errors={errors} />
      {typeof addedName === "string" ? <p role="status">{addedName} was added. You can now use it to sign in.</p> : null}
      {keys && keys.length === 0 ? <p>You have not added a security key yet.</p> : null}
      {keys && keys.length > 0 ? (
        <table className="account-table">
          <caption className="atelier-visually-hidden">Your security keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((securityKey) => (
              <tr key={securityKey.id}>
                <td data-label="Name">
                  {editingId === securityKey.id ? (
                    <RenameForm securityKey={securityKey} onRename={(name) => void rename(securityKey, name)} onCancel={() => setEditingId(undefined)} />
                  ) : (
                    securityKey.name
                  )}
                </td>
                <td data-label="Kind">{securityKey.is_passwordless ? <Badge tone="success">Passkey</Badge> : <Badge>Security key</Badge>}</td>
                <td data-label="Added" className="account-table__date">{formatSeconds(securityKey.created_at)}</td>
                <td data-label="Last used" className="account-table__date">{formatSeconds(securityKey.last_used_at)}</td>
                <td className="mfa-actions account-table__actions" data-label="Actions">
                  <Button size="small" variant="secondary" onClick={() => setEditingId(securityKey.id)} aria-label={`Rename ${securityKey.name}`}>
                    Rename
                  </Button>
                  <Button size="small" variant="ghost" onClick={() => void remove(securityKey)} aria-label={`Remove ${securityKey.name}`}>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </SecurityKeysFrame>
  );
}
