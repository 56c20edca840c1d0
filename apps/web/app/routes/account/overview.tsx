import { Link } from "react-router";
import { ProtectedRoute, useAuthStatus } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";

export const meta = accountPageMeta("Settings");

/** Each part of the account, one line on what it is for. */
function AccountOverview() {
  const { user } = useAuthStatus();
  const sections = [
    { to: "/account/email", title: "E-mail addresses", description: `Where sign-in codes and receipts go${user?.email ? `; now ${user.email}` : ""}.` },
    {
      to: "/account/password/change",
      title: user?.has_usable_password === false ? "Set a password" : "Change password",
      description: user?.has_usable_password === false ? "You sign in without one today." : "Signing out every other device at the same time.",
    },
    { to: "/account/2fa", title: "Two-factor authentication", description: "An authenticator app, recovery codes, security keys and passkeys." },
    { to: "/account/sessions", title: "Sessions", description: "The browsers signed in to your account, and signing them out." },
    { to: "/account/providers", title: "Third-party accounts", description: "Signing in with another provider's account." },
    { to: "/pricing", title: "Plans and billing", description: "Your subscription, and what each plan includes." },
    { to: "/upload-subtitles", title: "Flashcards", description: "Your subtitle groups, and studying them." },
    { to: "/account/security", title: "Account history", description: "Sign-ins and changes to how you sign in, newest first." },
    { to: "/account/export", title: "Download your data", description: "Everything Atelier keeps about you, as a file; your flashcards for Anki." },
    { to: "/account/delete", title: "Delete your account", description: "Everything Atelier keeps about you goes, at once." },
  ];
  return (
    <AccountPage title="Settings" lead="Everything about your account in one place.">
      <ul className="account-overview">
        {sections.map((section) => (
          <li key={section.to}>
            <Link to={section.to} className="account-overview__link">
              {section.title}
            </Link>
            <p>{section.description}</p>
          </li>
        ))}
      </ul>
    </AccountPage>
  );
}

export default function AccountOverviewRoute() {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <AccountOverview />
    </ProtectedRoute>
  );
}
