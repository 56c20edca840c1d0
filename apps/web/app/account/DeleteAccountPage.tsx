import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Button } from "@atelier/ui";
import { AccountFormField, FormGeneralErrors } from "./AccountFormField.tsx";
import { useAccountDeletionClient } from "./account-deletion-client.ts";

export const ACCOUNT_DELETED_PATH = "/account/deleted";
const DELETE_ACCOUNT_PATH = "/account/delete";

/**
 * /account/delete: says what goes and what stays, asks for the e-mail address typed out, then deletes. A sign-in older
 * than a few minutes goes through the reauthentication screens first and comes back here.
 */
export function DeleteAccountPage({ email, onDeleted }: { email: string; onDeleted: () => Promise<void> | void }) {
  const client = useAccountDeletionClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string>();
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!matches || submitting) return;
    setSubmitting(true);
    setError(undefined);
    const result = await client.deleteAccount();
    if (result.status === "deleted") {
      await onDeleted();
      await navigate(ACCOUNT_DELETED_PATH, { replace: true });
      return;
    }
    setSubmitting(false);
    if (result.status === "reauthenticate") {
      await navigate(`/account/reauthenticate?next=${encodeURIComponent(DELETE_ACCOUNT_PATH)}`);
      return;
    }
    setError(result.message);
  };

  return (
    <div className="delete-account">
      <section aria-labelledby="delete-account-what">
        <h2 id="delete-account-what">What is deleted</h2>
        <ul>
          <li>Your account, its e-mail addresses and its password, second factors and passkeys.</li>
          <li>Your connected third-party accounts, and every session: every device is signed out.</li>
          <li>The subtitle groups you uploaded, public ones too, with their flashcards and everyone's progress on them.</li>
          <li>Your study progress, and your account's history.</li>
        </ul>
        <p>
          Any subscription is cancelled now, without a refund of the current period. Records of payments are kept as Swiss tax rules require. You can download
          your data first on the <Link to="/account/export">Download your data</Link> page. This cannot be undone.
        </p>
      </section>
      <form className="account-form" onSubmit={handleSubmit} noValidate aria-labelledby="delete-account-confirm">
        <h2 id="delete-account-confirm">Delete my account</h2>
        <AccountFormField
          label={`Type your e-mail address, ${email}, to confirm`}
          type="email"
          name="confirm-email"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <FormGeneralErrors errors={error ? [error] : []} />
        <Button type="submit" disabled={!matches || submitting}>
          {submitting ? "Deleting…" : "Delete my account"}
        </Button>
      </form>
    </div>
  );
}
