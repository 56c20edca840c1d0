import { Link } from "react-router";
import { artistProfile } from "@atelier/catalogue";
import { createPageMeta } from "../lib/site-meta.ts";
import { staticShellHandle } from "../site-shell/use-site-shell.ts";

/** Prerendered without React: see site-shell/use-site-shell.ts. */
export const handle = staticShellHandle;

export const meta = () =>
  createPageMeta({
    title: "Privacy Policy",
    description: "What personal data this site collects, why, how long it is kept, and your rights under Swiss law and the GDPR.",
    path: "/privacy-policy",
  });

export default function PrivacyPolicyPage() {
  return (
    <article className="page page--narrow prose">
      <h1>Privacy Policy</h1>
      <p className="page-subtitle">Last updated: April 7, 2025</p>
      <p>
        This policy explains how {artistProfile.studioName} ("we") handles personal data when you visit this web site, buy a painting, write to us or use the
        flashcard study tool.
      </p>

      <h2>1. Data we collect</h2>
      <p>
        When you write to us: your name, e-mail address and message. When you create an account: your e-mail address, a password stored only as a secure
        hash, and the sessions you are signed in with (time, browser and network address). When you study: the subtitle files you upload and your progress.
        When you buy a painting or a subscription, the payment provider collects your payment details; we receive the order and the address to ship to.
        Like every web server, ours records technical data of each request (address, time, page) for security.
      </p>

      <h2>2. How we use it</h2>
      <p>To answer your messages, ship and invoice your purchases, run your account and study progress, keep the site secure, and meet our legal duties. We do not sell your data and do not use it for advertising.</p>

      <h2>3. Sharing</h2>
      <p>
        Only with the processors that do the work for us: the card payment provider that hosts the checkout, our e-mail provider, and our hosting provider.
        Embedded content from a social network or a map provider is loaded only when you ask for it, and then that provider receives data about your visit.
      </p>

      <h2>4. Cookies and local storage</h2>
      <p>
        We use only the cookies the site needs to work: a session cookie when you sign in, a security cookie that protects forms, and, when you study
        flashcards without an account, a learner cookie that keeps your progress for one year from your first study. Your theme choice (light
        or dark) is kept in your browser's local storage. Visit statistics, if enabled, load only after you agree. The spam check of the contact form runs
        in your browser and on our own server, without any third party.
      </p>

      <h2>5. Retention</h2>
      <p>
        Messages are kept as long as needed to answer them and for at most two years. Account data is kept until you delete your account. Flashcard
        progress made without an account is deleted 13 months after you last studied, once its learner cookie has expired. Transaction records
        are kept about 10 years, as Swiss tax rules require. A record of your account's security events (sign-ins, failed sign-ins and changes to your
        password, addresses, second factors and connected accounts, each with its time, network address and browser) is kept for 180 days, to show you
        what happened to your account and to warn you of a sign-in from a new browser.
      </p>

      <h2>6. Your rights under Swiss law and the GDPR</h2>
      <p>
        Under the Swiss Federal Act on Data Protection (FADP) and, where it applies, the EU General Data Protection Regulation (GDPR), you may ask what data we
        hold about you, have it corrected or deleted, object to or restrict its use, and receive it in a portable form. You may also complain to the Swiss
        Federal Data Protection and Information Commissioner (FDPIC) or to your local supervisory authority.
      </p>
      <p>
        If you have an account, you can download everything we keep about you yourself, at any time, under Settings →{" "}
        <a href="/account/export">Download your data</a>: one file with your account, e-mail addresses, sessions, second factors (never a secret or a
        code), third-party accounts, subscriptions, your flashcards and your study progress, and each of your decks as CSV or for Anki. You can delete your
        account yourself under Settings → <a href="/account/delete">Delete your account</a>: your account and everything that is yours goes at once, any
        subscription is cancelled, and only the payment records that Swiss tax rules require stay. Under Settings →{" "}
        <a href="/account/security">Account history</a> you can see the sign-ins and changes to your account of the last 180 days.
      </p>

      <h2>7. Security</h2>
      <p>
        The site is served over an encrypted connection, passwords are stored as strong one-way hashes, sign-in codes are single use and expire, and access to
        personal data is limited to what each task needs.
      </p>

      <h2>8. International transfers</h2>
      <p>
        Our data is processed in Switzerland and the European Economic Area. Where a processor works from another country, such as the payment provider, the
        transfer rests on the safeguards the law recognises, such as standard contractual clauses.
      </p>

      <h2>9. Children</h2>
      <p>This site is not intended for people under 16, and we do not knowingly collect their data.</p>

      <h2>10. Changes</h2>
      <p>We may update this policy when the site or the law changes. The date at the top says when it last changed.</p>

      <h2>11. Contact</h2>
      <p>
        For any question about your data, <Link to="/contact">write to us</Link> or phone {artistProfile.phone}. The software of this site is covered by its{" "}
        <Link to="/Licence">licence</Link>.
      </p>
    </article>
  );
}
