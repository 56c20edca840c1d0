import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Configuration } from "../../config.ts";
import { logger } from "../../logging/logger.ts";
import { generateKeyPairOfItsOwn } from "../../security/key-pair-of-its-own.ts";

/** A person the local provider can sign in as; the login page offers these, and any other account id works too. */
export type LocalOpenIdTestUser = { accountId: string; name: string; email: string | null; emailVerified: boolean; description: string };

/** The ready-made test users: one of each case the sign-in rules distinguish. */
export const localOpenIdTestUsers: readonly LocalOpenIdTestUser[] = [
  { accountId: "ada", name: "Ada Lovelace", email: "ada@example.test", emailVerified: true, description: "verified e-mail" },
  { accountId: "linus", name: "Linus Torvalds", email: "linus@example.test", emailVerified: false, description: "unverified e-mail" },
  { accountId: "grace", name: "Grace Hopper", email: null, emailVerified: false, description: "no e-mail" },
];

export const localOpenIdProviderId = "local";
export const localOpenIdProviderName = "Test ID (local)";
export const localOpenIdClientId = "atelier-local";

export type LocalOpenIdProvider = {
  /** `http://127.0.0.1:<port>`: the issuer the site discovers, and where the browser is sent to sign in. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
};

export type StartLocalOpenIdProviderOptions = {
  /** 0 picks a free port. */
  port: number;
  /** The site's callback URLs, registered for the one client (e.g. `http://localhost:3000/accounts/local/login/callback/`). */
  redirectUris: readonly string[];
};

type AccountClaims = { sub: string; name?: string; email?: string; email_verified?: boolean };

const accountIdPattern = /^[A-Za-z0-9._-]{1,40}$/;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${localOpenIdProviderName}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}fieldset{border:1px solid #bbb;border-radius:6px;margin:1rem 0;padding:.5rem 1rem 1rem}
label{display:block;margin:.5rem 0 .2rem}input[type=text],input[type=email]{width:100%;padding:.4rem;box-sizing:border-box}
button{font:inherit;padding:.4rem .9rem;margin:.3rem .3rem .3rem 0;cursor:pointer}.note{color:#555;font-size:.9rem}
</style></head><body><p class="note">${localOpenIdProviderName}: a development OpenID provider on this machine. It signs in anyone as anyone.</p>
<h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

async function readForm(request: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) {
      throw new Error("The form is too large.");
    }
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(response: http.ServerResponse, status: number, html: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  response.setHeader("Cache-Control", "no-store");
  response.end(html);
}

/**
 * Starts a real OpenID provider (oidc-provider) on loopback with one confidential client for the site, its own login
 * and consent pages, and the test users above. For development and tests only: it refuses to start in production.
 *
 * @example
 * const local = await startLocalOpenIdProvider({ port: 0, redirectUris: ["http://localhost:3000/accounts/local/login/callback/"] });
 * // issuer: local.issuer, client: local.clientId / local.clientSecret
 */
export async function startLocalOpenIdProvider(options: StartLocalOpenIdProviderOptions): Promise<LocalOpenIdProvider> {
  if (process.env.NODE_ENV === "production") {
    throw new Error("The local OpenID provider signs in anyone as anyone; it does not start in production.");
  }
  // Imported here so that production never loads it (and Node 20 sees its "unsupported runtime" notice only in development).
  const { default: Provider } = await import("oidc-provider");

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const clientSecret = randomBytes(24).toString("base64url");
  const accounts = new Map<string, AccountClaims>();
  for (const user of localOpenIdTestUsers) {
    accounts.set(user.accountId, claimsOf(user));
  }

  const signingKey = generateKeyPairOfItsOwn({ type: "rsa", modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: localOpenIdClientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    scopes: ["openid", "email", "profile"],
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    jwks: { keys: [{ ...signingKey, kid: "local-1", use: "sig", alg: "RS256" }] as never },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 900, Session: 3600, Grant: 3600 },
    async findAccount(_context, accountId) {
      const claims = accounts.get(accountId) ?? { sub: accountId };
      return { accountId, claims: async () => claims };
    },
  });
  provider.on("server_error", (_context, error) => logger.error({ err: error }, "The local OpenID provider failed:"));
  const providerCallback = provider.callback();

  async function handleInteraction(request: http.IncomingMessage, response: http.ServerResponse, action: string): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    const base = `/interaction/${details.uid}`;
    if (request.method === "POST" && action === "abort") {
      await provider.interactionFinished(request, response, { error: "access_denied", error_description: "The user refused to sign in." }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === "login") {
      if (request.method === "POST" && action === "login") {
        const form = await readForm(request);
        const accountId = (form.get("account_id") ?? "").trim();
        if (!accountIdPattern.test(accountId)) {
          send(response, 400, loginPage(base, "The account id must be 1 to 40 letters, digits, dots, dashes or underscores."));
          return;
        }
        const preset = localOpenIdTestUsers.find((user) => user.accountId === accountId);
        const email = (form.get("email") ?? "").trim();
        const name = (form.get("name") ?? "").trim();
        accounts.set(
          accountId,
          preset && form.get("preset") === "1"
            ? claimsOf(preset)
            : { sub: accountId, ...(name ? { name } : {}), ...(email ? { email, email_verified: form.get("email_verified") === "on" } : {}) },
        );
        await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
        return;
      }
      send(response, 200, loginPage(base, null));
      return;
    }
    if (details.prompt.name === "consent") {
      if (request.method === "POST" && action === "confirm") {
        const accountId = details.session?.accountId;
        if (!accountId) {
          throw new Error("The consent step has no signed-in account.");
        }
        const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        if (!grant) {
          throw new Error("The consent step's grant is gone.");
        }
        const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        if (missing.missingOIDCScope) {
          grant.addOIDCScope(missing.missingOIDCScope.join(" "));
        }
        if (missing.missingOIDCClaims) {
          grant.addOIDCClaims(missing.missingOIDCClaims);
        }
        const grantId = await grant.save();
        await provider.interactionFinished(request, response, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
        return;
      }
      const scopes = String(details.params.scope ?? "openid").split(" ");
      send(
        response,
        200,
        page(
          "Share your details with Atelier?",
          `<p>Signed in here as <strong>${escapeHtml(String(details.session?.accountId ?? ""))}</strong>. Atelier asks for: ${escapeHtml(scopes.join(", "))}.</p>
<form method="post" action="${base}/confirm"><button type="submit" autofocus>Allow</button></form>
<form method="post" action="${base}/abort"><button type="submit">Deny</button></form>`,
        ),
      );
      return;
    }
    send(response, 400, page("Unexpected step", `<p>The step ${escapeHtml(details.prompt.name)} is not offered here.</p>`));
  }

  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|confirm|abort))?$/.exec(new URL(request.url ?? "/", issuer).pathname);
    if (!match) {
      providerCallback(request, response);
      return;
    }
    handleInteraction(request, response, match[2] ?? "").catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) {
        send(response, 400, page("This sign-in cannot go on", `<p>${escapeHtml(message)}</p><p>Go back to the site and start again.</p>`));
      } else {
        response.end();
      }
    });
  });

  return {
    issuer,
    clientId: localOpenIdClientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function claimsOf(user: LocalOpenIdTestUser): AccountClaims {
  return { sub: user.accountId, name: user.name, ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}) };
}

function loginPage(base: string, problem: string | null): string {
  const presets = localOpenIdTestUsers
    .map(
      (user) => `<form method="post" action="${base}/login"><input type="hidden" name="account_id" value="${user.accountId}"><input type="hidden" name="preset" value="1">
<button type="submit">Sign in as ${escapeHtml(user.name)}</button> <span class="note">${escapeHtml(user.description)}</span></form>`,
    )
    .join("\n");
  return page(
    "Sign in",
    `${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ""}
<fieldset><legend>Test users</legend>${presets}</fieldset>
<form method="post" action="${base}/login"><fieldset><legend>Any account</legend>
<label for="account_id">Account id</label><input type="text" id="account_id" name="account_id" required pattern="[A-Za-z0-9._\\-]{1,40}">
<label for="name">Name</label><input type="text" id="name" name="name">
<label for="email">E-mail</label><input type="email" id="email" name="email">
<label><input type="checkbox" name="email_verified"> The provider vouches for this e-mail (email_verified)</label>
<button type="submit">Sign in</button></fieldset></form>
<form method="post" action="${base}/abort"><button type="submit">Cancel</button></form>`,
  );
}

/**
 * The configuration with the started local provider added to the third-party providers, as a generic OpenID Connect
 * provider: the site discovers it and talks to it exactly as it would to any other.
 *
 * @example
 * configuration = addLocalOpenIdProvider(configuration, await startLocalOpenIdProvider({ port: 0, redirectUris }));
 */
export function addLocalOpenIdProvider(configuration: Configuration, local: LocalOpenIdProvider): Configuration {
  return {
    ...configuration,
    identity: {
      ...configuration.identity,
      socialProviders: [
        ...configuration.identity.socialProviders.filter((provider) => provider.id !== localOpenIdProviderId),
        { kind: "openid_connect", id: localOpenIdProviderId, name: localOpenIdProviderName, issuer: local.issuer, clientId: local.clientId, clientSecret: local.clientSecret },
      ],
    },
  };
}

/** The callback URL the local provider must accept for a site at `publicOrigin`. */
export function localOpenIdRedirectUriOf(publicOrigin: string): string {
  return `${publicOrigin}/accounts/${localOpenIdProviderId}/login/callback/`;
}
