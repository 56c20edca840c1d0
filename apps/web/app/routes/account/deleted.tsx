import { Link } from "react-router";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";

export const meta = accountPageMeta("Account deleted");

/** Where /account/delete lands: the user is signed out, so this page is not protected. */
export default function AccountDeletedRoute() {
  return (
    <AccountPage title="Your account has been deleted" lead="Everything Atelier kept about you is gone, and every device is signed out.">
      <p>We sent a last e-mail to confirm it. You may sign up again with the same address at any time.</p>
      <p>
        <Link to="/">Back to the paintings</Link>
      </p>
    </AccountPage>
  );
}
