import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";
import { paintings } from "@atelier/catalogue";

// One route per painting rather than a `/:paintingId` pattern, so that an unknown first segment falls to the
// not-found route and the server can answer it with status 404.
const paintingRoutes = paintings.flatMap((painting) => [
  route(painting.id, "routes/painting.tsx", { id: `painting/${painting.id}` }),
  route(`${painting.id}/image/:imageId`, "routes/image-viewer.tsx", { id: `image-viewer/${painting.id}` }),
]);

export default [
  index("routes/home.tsx"),
  route("paintings", "routes/paintings.tsx"),
  route("about", "routes/about.tsx"),
  route("events", "routes/events.tsx"),
  route("expositions", "routes/expositions.tsx"),
  route("contact", "routes/contact.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("Licence", "routes/licence.tsx"),
  // Study screens are client-only (served through the SPA fallback) and public to view; uploading needs sign-in.
  route("upload-subtitles", "routes/upload-subtitles.tsx"),
  route("study/:groupId/config", "routes/study/config.tsx"),
  route("study/:groupId/session", "routes/study/session.tsx"),
  // Public but client-only: the plan cards depend on the visitor's subscription.
  route("pricing", "routes/billing/pricing.tsx"),
  // Public and client-only, and it needs no authentication status, so it does not wait for one.
  route("account/provider/error", "routes/account/provider-error.tsx"),
  // Account screens are client-only: they wait for the authentication status ('Starting...').
  layout("routes/account-layout.tsx", [
  route("dashboard", "routes/dashboard.tsx"),
  route("calculator", "routes/calculator.tsx"),
  route("checkout-session", "routes/billing/checkout-session.tsx"),
  route("checkout-success", "routes/billing/checkout-success.tsx"),
  route("stripe-portal-session", "routes/billing/stripe-portal-session.tsx"),
  route("account", "routes/account/overview.tsx"),
  ...prefix("account", [
    route("login", "routes/account/login.tsx"),
    route("login/code", "routes/account/login-code.tsx"),
    route("login/code/confirm", "routes/account/login-code-confirm.tsx"),
    route("signup", "routes/account/signup.tsx"),
    route("logout", "routes/account/logout.tsx"),
    route("verify-email", "routes/account/verify-email.tsx"),
    route("verify-email/:key", "routes/account/verify-email-key.tsx"),
    route("password/reset", "routes/account/password-reset.tsx"),
    route("password/reset/confirm", "routes/account/password-reset-confirm.tsx"),
    route("password/reset/complete", "routes/account/password-reset-complete.tsx"),
    route("password/reset/key/:key", "routes/account/password-reset-key.tsx"),
    route("password/change", "routes/account/password-change.tsx"),
    route("email", "routes/account/email.tsx"),
    route("sessions", "routes/account/sessions.tsx"),
    route("reauthenticate", "routes/account/reauthenticate.tsx"),
    route("reauthenticate/totp", "routes/account/reauthenticate-totp.tsx"),
    route("reauthenticate/recovery-codes", "routes/account/reauthenticate-recovery-codes.tsx"),
    route("reauthenticate/webauthn", "routes/account/reauthenticate-webauthn.tsx"),
    route("authenticate/totp", "routes/account/authenticate-totp.tsx"),
    route("authenticate/recovery-codes", "routes/account/authenticate-recovery-codes.tsx"),
    route("authenticate/webauthn", "routes/account/authenticate-webauthn.tsx"),
    route("signup/passkey", "routes/account/signup-passkey.tsx"),
    route("signup/passkey/create", "routes/account/signup-passkey-create.tsx"),
    route("2fa", "routes/account/two-factor.tsx"),
    route("2fa/totp/activate", "routes/account/totp-activate.tsx"),
    route("2fa/totp/deactivate", "routes/account/totp-deactivate.tsx"),
    route("2fa/recovery-codes", "routes/account/recovery-codes.tsx"),
    route("2fa/recovery-codes/generate", "routes/account/recovery-codes-generate.tsx"),
    route("2fa/webauthn", "routes/account/webauthn.tsx"),
    route("2fa/webauthn/add", "routes/account/webauthn-add.tsx"),
    route("provider/callback", "routes/account/provider-callback.tsx"),
    route("provider/signup", "routes/account/provider-signup.tsx"),
    route("providers", "routes/account/providers.tsx"),
    route("export", "routes/account/export.tsx"),
    route("security", "routes/account/security.tsx"),
    route("delete", "routes/account/delete.tsx"),
    route("deleted", "routes/account/deleted.tsx"),
  ]),
  ]),
  ...paintingRoutes,
  // Any other first segment: the viewer's 'Image not found' (spec 2.5), prerendered at /__any/image/__not-found.
  route(":paintingId/image/:imageId", "routes/image-viewer.tsx", { id: "image-viewer/unknown-painting" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
