import { useCallback, useEffect, useState, type FormEvent } from "react";
import { Badge, Button } from "@atelier/ui";
import type { EmailAddress } from "@atelier/auth";
import { ProtectedRoute } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "../../account/AccountFormField.tsx";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { useAllauthForm } from "../../account/use-allauth-form.ts";
import { authClient } from "../../lib/auth.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("E-mail addresses");

function EmailAddresses() {
  const [addresses, setAddresses] = useState<EmailAddress[] | undefined>(undefined);
  const [newEmail, setNewEmail] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const form = useAllauthForm();

  const reload = useCallback(async () => {
    const result = await authClient.listEmailAddresses();
    if (result.status === 200) setAddresses(result.data as EmailAddress[]);
  }, []);

  useEffect(() => {
    reload().catch((error: unknown) => console.error(error));
  }, [reload]);

  const applyListResult = (result: { status: number; data?: unknown } | undefined, successNotice: string) => {
    if (result?.status === 200) {
      if (Array.isArray(result.data)) setAddresses(result.data as EmailAddress[]);
      setNotice(successNotice);
    }
  };

  const addAddress = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNotice(null);
    const result = await form.submit(() => authClient.addEmailAddress({ email: newEmail }));
    if (result?.status === 200) setNewEmail("");
    applyListResult(result, `We have sent a confirmation message to ${newEmail}.`);
  };

  const act = async (action: () => Promise<{ status: number; data?: unknown }>, successNotice: string) => {
    setNotice(null);
    const result = await form.submit(action);
    applyListResult(result, successNotice);
    if (result?.status === 200 && !Array.isArray(result.data)) await reload();
  };

  return (
    <AccountPage title="E-mail addresses">
      {addresses === undefined ? <p>Loading your addresses…</p> : null}
      {addresses ? (
        <table className="account-table">
          <caption className="atelier-visually-hidden">Your e-mail addresses</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {addresses.map((address) => (
              <tr key={address.email} data-email={address.email}>
                <td data-label="Address">{address.email}</td>
                <td className="account-table__badges" data-label="Status">
                  {address.primary ? <Badge tone="neutral">Primary</Badge> : null}
                  {address.verified ? <Badge tone="success">Verified</Badge> : <Badge tone="neutral">Unverified</Badge>}
                </td>
                <td className="account-table__actions" data-label="Actions">
                  {!address.primary && address.verified ? (
                    <Button size="small" variant="secondary" disabled={form.submitting} onClick={() => act(() => authClient.markEmailAddressAsPrimary({ email: address.email }), `${address.email} is now your primary address.`)}>
                      Make primary
                    </Button>
                  ) : null}
                  {!address.verified ? (
                    <Button size="small" variant="secondary" disabled={form.submitting} onClick={() => act(() => authClient.requestEmailVerification({ email: address.email }), `We have sent a new confirmation message to ${address.email}.`)}>
                      Resend
                    </Button>
                  ) : null}
                  {!address.primary ? (
                    <Button size="small" variant="ghost" disabled={form.submitting} onClick={() => act(() => authClient.removeEmailAddress({ email: address.email }), `${address.email} was removed.`)}>
                      Remove
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {notice ? <p role="status">{notice}</p> : null}
      <h2>Add an address</h2>
      <form className="account-form" onSubmit={addAddress} noValidate>
        <AccountFormField label="New e-mail address" type="email" name="email" autoComplete="email" required value={newEmail} onChange={(event) => setNewEmail(event.target.value)} errors={form.errors.byParam.email} />
        <FormGeneralErrors errors={form.errors.general} />
        <Button type="submit" disabled={form.submitting}>
          Add address
        </Button>
      </form>
    </AccountPage>
  );
}

export default function EmailRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <EmailAddresses />
    </ProtectedRoute>
  );
}
