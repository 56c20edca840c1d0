import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Badge, Button } from "@atelier/ui";
import type { AllauthClient, EmailAddress } from "@atelier/auth";
import { useAuthClient } from "@atelier/auth/react";
import { AccountFormField, FormGeneralErrors } from "./AccountFormField.tsx";
import { AccountPage } from "./AccountPage.tsx";
import { useAccountSettings } from "./auth-hooks.ts";
import { useAllauthForm } from "./use-allauth-form.ts";

const EMAIL_ADDRESSES_TITLE = "E-mail addresses";

/** The address being added survives a reauthentication, which leaves this page and comes back (issue 13). */
const PENDING_ADDITION_KEY = "atelier:email-being-added";
const PENDING_ADDITION_LIFETIME_MILLISECONDS = 10 * 60 * 1000;
/** allauth sends one verification mail per address every 10 s in code mode (`confirm_email` rate limit). */
const RESEND_COOLDOWN_MILLISECONDS = 10_000;

function rememberAddressBeingAdded(email: string) {
  try {
    window.sessionStorage.setItem(PENDING_ADDITION_KEY, JSON.stringify({ email, at: Date.now() }));
  } catch {
    // Without storage the address is only lost if a reauthentication interrupts.
  }
}

function takeAddressBeingAdded(): string | undefined {
  try {
    const raw = window.sessionStorage.getItem(PENDING_ADDITION_KEY);
    window.sessionStorage.removeItem(PENDING_ADDITION_KEY);
    const saved = raw ? (JSON.parse(raw) as { email?: unknown; at?: unknown }) : undefined;
    if (typeof saved?.email === "string" && typeof saved.at === "number" && Date.now() - saved.at < PENDING_ADDITION_LIFETIME_MILLISECONDS) return saved.email;
  } catch {
    // Unreadable: start with an empty field.
  }
  return undefined;
}

const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "medium" });

/** What the e-mail page lists: the account's addresses. */
export interface EmailAddressesData {
  addresses: EmailAddress[];
}

/**
 * The e-mail page's `clientLoader` (routes/account/email.tsx), a plain function so tests call it with a fake client. A
 * signed-out visitor's 401 lists nothing: the page is not shown to them (`ProtectedRoute` opens the login modal), and a
 * sign-in reloads the page.
 */
export async function loadEmailAddresses(client: Pick<AllauthClient, "listEmailAddresses">): Promise<EmailAddressesData> {
  const result = await client.listEmailAddresses();
  return { addresses: result.status === 200 ? result.data : [] };
}

/** Shown while the addresses load on a first visit (the route's `HydrateFallback`). */
export function EmailAddressesLoading() {
  return (
    <AccountPage title={EMAIL_ADDRESSES_TITLE}>
      <p>Loading your addresses…</p>
    </AccountPage>
  );
}

/**
 * /account/email: the account's addresses from the route's loader; `reload` runs the loader again after a change (an
 * address added, confirmed, made primary or removed).
 */
export function EmailAddressesPage({ data, reload }: { data: EmailAddressesData; reload: () => Promise<void> }) {
  const authClient = useAuthClient();
  const { emailVerificationByCodeEnabled } = useAccountSettings();
  const [newEmail, setNewEmail] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  /** The address whose code the page asks for (code mode): the one just added, or one whose code was resent. */
  const [confirming, setConfirming] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const lastSentAt = useRef(new Map<string, number>());
  const form = useAllauthForm();
  const rowForm = useAllauthForm();
  const codeForm = useAllauthForm();

  const submitAddress = useCallback(
    async (email: string) => {
      setNotice(null);
      rememberAddressBeingAdded(email);
      const result = await form.submit(() => authClient.addEmailAddress({ email }));
      // A reauthentication answer leaves the page with the address remembered; any other answer settles it.
      if (result?.status !== 401) takeAddressBeingAdded();
      if (result?.status !== 200) return;
      setNewEmail("");
      lastSentAt.current.set(email, Date.now());
      if (emailVerificationByCodeEnabled) {
        setConfirming(email);
        setCode("");
      }
      setNotice(emailVerificationByCodeEnabled ? `We have sent a code to ${email}. Enter it below to confirm the address.` : `We have sent a confirmation message to ${email}.`);
      await reload();
    },
    // `form` is a new object on each render, but its submit only uses stable state setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above.
    [authClient, emailVerificationByCodeEnabled, reload],
  );

  // Back from a reauthentication: add the address the visitor had typed (kept in sessionStorage), once.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const email = takeAddressBeingAdded();
    if (email) {
      setNewEmail(email);
      void submitAddress(email);
    }
  }, [submitAddress]);

  const addAddress = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await submitAddress(newEmail);
  };

  const act = async (action: () => Promise<{ status: number }>, successNotice: string) => {
    setNotice(null);
    const result = await rowForm.submit(action);
    if (result?.status === 200) {
      setNotice(successNotice);
      await reload();
    }
    return result;
  };

  const removeAddress = async (email: string) => {
    const result = await act(() => authClient.removeEmailAddress({ email }), `${email} was removed.`);
    // The code asked for belonged to the address just removed: nothing is left to confirm.
    if (result?.status === 200 && confirming?.toLowerCase() === email.toLowerCase()) setConfirming(null);
  };

  const resend = async (email: string) => {
    const result = await act(() => authClient.requestEmailVerification({ email }), emailVerificationByCodeEnabled ? `We have sent a new code to ${email}.` : `We have sent a new confirmation message to ${email}.`);
    if (result?.status === 200) {
      lastSentAt.current.set(email, Date.now());
      if (emailVerificationByCodeEnabled) setConfirming(email);
    } else if (result?.status === 403 || result?.status === 429) {
      const sentAt = lastSentAt.current.get(email);
      const nextAt = sentAt === undefined ? undefined : new Date(sentAt + RESEND_COOLDOWN_MILLISECONDS);
      rowForm.setErrors({
        byParam: {},
        general: [
          `No new message was sent to ${email}: one can be sent every 10 seconds${nextAt && nextAt.getTime() > Date.now() ? `; try again after ${timeFormat.format(nextAt)}` : "; please try again in a moment"}.`,
        ],
      });
    }
  };

  const confirmCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!confirming) return;
    const email = confirming;
    const result = await codeForm.submit(() => authClient.verifyEmail({ key: code.trim() }));
    if (result?.status === 200) {
      setConfirming(null);
      setCode("");
      await reload();
      setNotice(`${email} is confirmed.`);
    } else if (result?.status === 409) {
      codeForm.setErrors({ byParam: {}, general: [`There is no code waiting for ${email} any more (a code lasts a few minutes and allows three tries). Press Resend for a new one.`] });
    }
  };

  return (
    <AccountPage title={EMAIL_ADDRESSES_TITLE}>
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
          {data.addresses.map((address) => (
            <tr key={address.email} data-email={address.email}>
              <td data-label="Address">{address.email}</td>
              <td className="account-table__badges" data-label="Status">
                {address.primary ? <Badge tone="neutral">Primary</Badge> : null}
                {address.verified ? <Badge tone="success">Verified</Badge> : <Badge tone="neutral">Unverified</Badge>}
              </td>
              <td className="account-table__actions" data-label="Actions">
                {!address.primary && address.verified ? (
                  <Button size="small" variant="secondary" disabled={rowForm.submitting} onClick={() => act(() => authClient.markEmailAddressAsPrimary({ email: address.email }), `${address.email} is now your primary address.`)}>
                    Make primary
                  </Button>
                ) : null}
                {!address.verified ? (
                  <>
                    {emailVerificationByCodeEnabled && confirming !== address.email ? (
                      <Button size="small" variant="secondary" onClick={() => setConfirming(address.email)}>
                        Enter code
                      </Button>
                    ) : null}
                    <Button size="small" variant="secondary" disabled={rowForm.submitting} onClick={() => void resend(address.email)}>
                      Resend
                    </Button>
                  </>
                ) : null}
                {!address.primary ? (
                  <Button size="small" variant="ghost" disabled={rowForm.submitting} onClick={() => removeAddress(address.email)}>
                    Remove
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormGeneralErrors errors={[...rowForm.errors.general, ...Object.values(rowForm.errors.byParam).flat()]} />
      {notice ? <p role="status">{notice}</p> : null}
      {confirming ? (
        <section className="account-confirm-code" aria-labelledby="confirm-address-heading">
          <h2 id="confirm-address-heading">Confirm {confirming}</h2>
          <form className="account-form" onSubmit={confirmCode} noValidate>
            <AccountFormField
              label="Code"
              name="code"
              autoComplete="one-time-code"
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
              errors={codeForm.errors.byParam.key ?? codeForm.errors.byParam.code}
            />
            <FormGeneralErrors errors={codeForm.errors.general} />
            <div className="account-form__actions">
              <Button type="submit" disabled={codeForm.submitting || code.trim() === ""}>
                Confirm
              </Button>
              <Button type="button" variant="ghost" onClick={() => setConfirming(null)}>
                Later
              </Button>
            </div>
          </form>
        </section>
      ) : null}
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
