import * as openIdClient from "openid-client";
import type { Clock } from "../../clock.ts";
import type { SocialProviderConfiguration } from "../../config.ts";
import { describeSocialProvider, type ProviderDescription } from "./provider-description.ts";

/** What a provider tells us about the person after a successful authorization. */
export type ProviderProfile = {
  /** The subject at the provider; with our provider id it names one third-party account. */
  uid: string;
  email: string | null;
  /** The provider vouches that the person controls `email` (OpenID `email_verified`, GitHub's verified flag). */
  emailVerified: boolean;
  display: string;
  /** The claims or profile as received, kept with the connected account. */
  extraData: Record<string, unknown>;
};

/** The secrets of one authorization request, kept in the session until the provider sends the person back. */
export type AuthorizationRequest = { authorizationUrl: string; state: string; nonce: string | null; codeVerifier: string };

export type SocialProvider = {
  id: string;
  name: string;
  description: ProviderDescription;
  /** Where the browser is sent to sign in: the CSP's `form-action` must allow it, since it governs redirects too. */
  authorizationOrigin: string;
  createAuthorizationRequest(redirectUri: string): Promise<AuthorizationRequest>;
  /** Exchanges the code of `callbackUrl` (state, PKCE and nonce checked) and reads the person's profile. */
  completeAuthorization(callbackUrl: URL, request: Omit<AuthorizationRequest, "authorizationUrl">): Promise<ProviderProfile>;
};

export type SocialProviderOptions = {
  /** `http:` issuers (the local provider); never in production. */
  allowInsecureRequests: boolean;
  /** Replaces `fetch` for every call to the provider (tests of presets whose servers are out of reach). */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds before a call to the provider gives up. */
  timeoutMilliseconds?: number;
  /** The server's clock: ID tokens' `iat` and `exp` are checked against it, not against the system clock. */
  clock?: Clock;
};

const githubEndpoints = {
  issuer: "https://github.com",
  authorization_endpoint: "https://github.com/login/oauth/authorize",
  token_endpoint: "https://github.com/login/oauth/access_token",
  user: "https://api.github.com/user",
  emails: "https://api.github.com/user/emails",
} as const;

function claimIsTrue(value: unknown): boolean {
  return value === true || value === "true";
}

function textClaim(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/**
 * The providers of the configuration, by id, each speaking its protocol through openid-client: discovery, PKCE,
 * state and nonce, the code exchange with ID token validation, and the userinfo (or GitHub user API) call.
 *
 * @example
 * const providers = createSocialProviders(configuration.identity.socialProviders, { allowInsecureRequests: false });
 * const request = await providers.get("google")?.createAuthorizationRequest("https://atelier.example/accounts/google/login/callback/");
 */
export function createSocialProviders(configurations: readonly SocialProviderConfiguration[], options: SocialProviderOptions): Map<string, SocialProvider> {
  const providers = new Map<string, SocialProvider>();
  for (const configuration of configurations) {
    providers.set(configuration.id, configuration.kind === "github" ? createGitHubProvider(configuration, options) : createOpenIdConnectProvider(configuration, options));
  }
  return providers;
}

/** Fresh PKCE verifier, state (and nonce, for OpenID Connect) and the authorization URL that carries them. */
async function buildAuthorizationRequest(server: openIdClient.Configuration, options: { redirectUri: string; scope: string; withNonce: boolean }): Promise<AuthorizationRequest> {
  const codeVerifier = openIdClient.randomPKCECodeVerifier();
  const state = openIdClient.randomState();
  const nonce = options.withNonce ? openIdClient.randomNonce() : null;
  const url = openIdClient.buildAuthorizationUrl(server, {
    redirect_uri: options.redirectUri,
    scope: options.scope,
    code_challenge: await openIdClient.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    ...(nonce ? { nonce } : {}),
  });
  return { authorizationUrl: url.href, state, nonce, codeVerifier };
}

function applyOptions(configuration: openIdClient.Configuration, options: SocialProviderOptions): void {
  if (options.fetch) {
    configuration[openIdClient.customFetch] = options.fetch as openIdClient.CustomFetch;
  }
  configuration.timeout = Math.ceil((options.timeoutMilliseconds ?? 10_000) / 1_000);
}

/**
 * The discovered configuration, with openid-client's notion of "now" moved to the server's clock. openid-client reads
 * the system clock plus its `clockSkew`, fixed when a Configuration is made, so each token validation gets its own.
 */
function atTheServersClock(server: openIdClient.Configuration, configuration: Extract<SocialProviderConfiguration, { kind: "openid_connect" }>, options: SocialProviderOptions): openIdClient.Configuration {
  if (!options.clock) return server;
  const skewSeconds = Math.round((options.clock().getTime() - Date.now()) / 1_000);
  if (skewSeconds === 0) return server;
  const moved = new openIdClient.Configuration(server.serverMetadata(), configuration.clientId, { client_secret: configuration.clientSecret, [openIdClient.clockSkew]: skewSeconds });
  applyOptions(moved, options);
  if (options.allowInsecureRequests && configuration.issuer.startsWith("http:")) {
    openIdClient.allowInsecureRequests(moved);
  }
  return moved;
}

function createOpenIdConnectProvider(configuration: Extract<SocialProviderConfiguration, { kind: "openid_connect" }>, options: SocialProviderOptions): SocialProvider {
  let discovered: Promise<openIdClient.Configuration> | null = null;

  function serverConfiguration(): Promise<openIdClient.Configuration> {
    discovered ??= openIdClient
      .discovery(new URL(configuration.issuer), configuration.clientId, configuration.clientSecret, undefined, {
        execute: options.allowInsecureRequests && configuration.issuer.startsWith("http:") ? [openIdClient.allowInsecureRequests] : [],
        ...(options.fetch ? { [openIdClient.customFetch]: options.fetch as openIdClient.CustomFetch } : {}),
        timeout: Math.ceil((options.timeoutMilliseconds ?? 10_000) / 1_000),
      })
      .then((result) => {
        applyOptions(result, options);
        return result;
      })
      .catch((error: unknown) => {
        // Try again next time: the provider may only have been away for a moment.
        discovered = null;
        throw error;
      });
    return discovered;
  }

  return {
    id: configuration.id,
    name: configuration.name,
    description: describeSocialProvider(configuration),
    authorizationOrigin: new URL(configuration.issuer).origin,

    async createAuthorizationRequest(redirectUri) {
      return buildAuthorizationRequest(await serverConfiguration(), { redirectUri, scope: "openid email profile", withNonce: true });
    },

    async completeAuthorization(callbackUrl, request) {
      const server = atTheServersClock(await serverConfiguration(), configuration, options);
      const tokens = await openIdClient.authorizationCodeGrant(server, callbackUrl, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
        ...(request.nonce ? { expectedNonce: request.nonce } : {}),
        idTokenExpected: true,
      });
      const idTokenClaims = tokens.claims();
      if (!idTokenClaims) {
        throw new Error(`${configuration.name} sent no ID token.`);
      }
      let claims: Record<string, unknown> = { ...idTokenClaims };
      if (server.serverMetadata().userinfo_endpoint) {
        claims = { ...claims, ...(await openIdClient.fetchUserInfo(server, tokens.access_token, idTokenClaims.sub)) };
      }
      const email = textClaim(claims.email);
      return {
        uid: idTokenClaims.sub,
        email,
        emailVerified: email !== null && claimIsTrue(claims.email_verified),
        display: textClaim(claims.name) ?? email ?? textClaim(claims.preferred_username) ?? idTokenClaims.sub,
        extraData: claims,
      };
    },
  };
}

type GitHubUser = { id: number; login: string; name?: string | null; email?: string | null };
type GitHubEmail = { email: string; primary: boolean; verified: boolean };

function createGitHubProvider(configuration: Extract<SocialProviderConfiguration, { kind: "github" }>, options: SocialProviderOptions): SocialProvider {
  const server = new openIdClient.Configuration(
    { issuer: githubEndpoints.issuer, authorization_endpoint: githubEndpoints.authorization_endpoint, token_endpoint: githubEndpoints.token_endpoint },
    configuration.clientId,
    configuration.clientSecret,
  );
  applyOptions(server, options);

  async function readGitHub<T>(accessToken: string, url: string): Promise<T> {
    const headers = new Headers({ Accept: "application/vnd.github+json", "User-Agent": "Atelier", "X-GitHub-Api-Version": "2022-11-28" });
    const response = await openIdClient.fetchProtectedResource(server, accessToken, new URL(url), "GET", undefined, headers);
    if (!response.ok) {
      throw new Error(`GitHub answered ${response.status} to ${url}.`);
    }
    return (await response.json()) as T;
  }

  return {
    id: configuration.id,
    name: configuration.name,
    description: describeSocialProvider(configuration),
    authorizationOrigin: githubEndpoints.issuer,

    async createAuthorizationRequest(redirectUri) {
      return buildAuthorizationRequest(server, { redirectUri, scope: "read:user user:email", withNonce: false });
    },

    async completeAuthorization(callbackUrl, request) {
      const tokens = await openIdClient.authorizationCodeGrant(server, callbackUrl, { pkceCodeVerifier: request.codeVerifier, expectedState: request.state });
      const user = await readGitHub<GitHubUser>(tokens.access_token, githubEndpoints.user);
      if (typeof user.id !== "number") {
        throw new Error("GitHub's user answer has no id.");
      }
      const emails = await readGitHub<GitHubEmail[]>(tokens.access_token, githubEndpoints.emails);
      const verified = Array.isArray(emails) ? emails.filter((candidate) => candidate.verified) : [];
      const chosen = verified.find((candidate) => candidate.primary) ?? verified[0] ?? null;
      const email = chosen?.email ?? textClaim(user.email);
      return {
        uid: String(user.id),
        email,
        emailVerified: chosen !== null,
        display: textClaim(user.name) ?? user.login,
        extraData: { ...user, emails },
      };
    },
  };
}
