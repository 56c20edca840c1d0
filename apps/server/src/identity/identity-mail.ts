import { escapeHtml } from "../http/escape-html.ts";
import type { MailMessage } from "../mail/mailer.ts";

/** The web routes that mails link to (spec §2.2). */
export function createIdentityLinks(publicOrigin: string) {
  return {
    verifyEmail: (key: string) => `${publicOrigin}/account/verify-email/${encodeURIComponent(key)}`,
    resetPassword: (key: string) => `${publicOrigin}/account/password/reset/key/${encodeURIComponent(key)}`,
    requestPasswordReset: `${publicOrigin}/account/password/reset`,
    signup: `${publicOrigin}/account/signup`,
    login: `${publicOrigin}/account/login`,
  };
}

type Paragraph = { text: string } | { code: string } | { link: string; label: string };

/** One layout for every identity mail: paragraphs, a code on its own line, or a link; HTML values escaped. */
export function composeMail(to: string, subject: string, paragraphs: Paragraph[]): MailMessage {
  const textParts = paragraphs.map((paragraph) => {
    if ("code" in paragraph) {
      return `Your code: ${paragraph.code}`;
    }
    if ("link" in paragraph) {
      return `${paragraph.label}: ${paragraph.link}`;
    }
    return paragraph.text;
  });
  const htmlParts = paragraphs.map((paragraph) => {
    if ("code" in paragraph) {
      return `<p>Your code: <strong style="font-family:monospace;font-size:1.4em;letter-spacing:0.1em">${escapeHtml(paragraph.code)}</strong></p>`;
    }
    if ("link" in paragraph) {
      return `<p><a href="${escapeHtml(paragraph.link)}">${escapeHtml(paragraph.label)}</a><br><span style="font-size:0.85em;color:#555">${escapeHtml(paragraph.link)}</span></p>`;
    }
    return `<p>${escapeHtml(paragraph.text)}</p>`;
  });
  const closing = "If you did not ask for this, you can ignore this e-mail.";
  return {
    to,
    subject,
    text: `Hello,\n\n${textParts.join("\n\n")}\n\n${closing}\n\nAtelier\n`,
    html: `<!doctype html>
<html lang="en"><body style="font-family:Georgia,serif;line-height:1.5">
<p>Hello,</p>
${htmlParts.join("\n")}
<p>${escapeHtml(closing)}</p>
<p>Atelier</p>
</body></html>`,
  };
}

/** The identity service's mails. Codes appear as a line `Your code: XXXX-XXXX`, links as `<label>: <url>`. */
export const identityMails = {
  loginCode: (to: string, code: string) =>
    composeMail(to, "Your sign-in code for Atelier", [{ text: "Enter this code on the page where you asked to sign in. It expires in 3 minutes." }, { code }]),
  emailVerificationCode: (to: string, code: string) =>
    composeMail(to, "Confirm your e-mail address for Atelier", [{ text: `Enter this code to confirm ${to}. It expires in 15 minutes.` }, { code }]),
  emailVerificationLink: (to: string, link: string) =>
    composeMail(to, "Confirm your e-mail address for Atelier", [{ text: `Open this link to confirm ${to}. It expires in 3 days.` }, { link, label: "Confirm your e-mail address" }]),
  passwordResetCode: (to: string, code: string) =>
    composeMail(to, "Your password reset code for Atelier", [{ text: "Enter this code to choose a new password. It expires in 3 minutes." }, { code }]),
  passwordResetLink: (to: string, link: string) =>
    composeMail(to, "Reset your Atelier password", [{ text: "Open this link to choose a new password. It expires in 3 days and works once." }, { link, label: "Reset your password" }]),
  accountAlreadyExists: (to: string, links: { login: string; requestPasswordReset: string }) =>
    composeMail(to, "You already have an Atelier account", [
      { text: `Someone tried to sign up with ${to}, but an account with this address already exists.` },
      { link: links.login, label: "Sign in" },
      { link: links.requestPasswordReset, label: "Forgot your password? Reset it" },
    ]),
  unknownAccount: (to: string, signupLink: string) =>
    composeMail(to, "No Atelier account for this address", [
      { text: `Someone asked to sign in or reset a password for ${to}, but there is no account with this address.` },
      { link: signupLink, label: "Create an account" },
    ]),
  passwordChanged: (to: string) =>
    composeMail(to, "Your Atelier password was changed", [{ text: "The password of your account was just changed. If this was not you, reset your password at once." }]),
  passwordSet: (to: string) =>
    composeMail(to, "A password was set for your Atelier account", [{ text: "A password was just set for your account: it can now sign in with it as well. If this was not you, reset your password at once." }]),
};
