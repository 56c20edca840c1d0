import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startLocalOpenIdProvider } from "./local-openid-provider.ts";
import { createSocialProviders } from "./social-providers.ts";

const redirectUri = "https://atelier.example/accounts/github/login/callback/";

/**
 * GitHub as openid-client meets it, for the three calls the preset makes (github.com is out of reach here): the token
 * endpoint checks the client secret, the code and the PKCE verifier against the challenge it was shown.
 */
function createFakeGitHub(options: { emails: { email: string; primary: boolean; verified: boolean }[] }) {
  const issuedCodes = new Map<string, string>();
  const calls: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.origin}${url.pathname}`);
    if (url.href === "https://github.com/login/oauth/access_token") {
      const form = new URLSearchParams(await request.text());
      const challenge = issuedCodes.get(form.get("code") ?? "");
      const verifierHash = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
      if (form.get("client_secret") !== "github-secret" || form.get("redirect_uri") !== redirectUri || challenge === undefined || challenge !== verifierHash) {
        return Response.json({ error: "bad_verification_code" }, { status: 400 });
      }
      return Response.json({ access_token: "gho_token", token_type: "bearer", scope: "read:user,user:email" });
    }
    if (request.headers.get("authorization") !== "Bearer gho_token") {
      return Response.json({ message: "Bad credentials" }, { status: 401 });
    }
    if (url.href === "https://api.github.com/user") {
      return Response.json({ id: 583231, login: "octocat", name: "The Octocat", email: "public@example.test" });
    }
    if (url.href === "https://api.github.com/user/emails") {
      return Response.json(options.emails);
    }
    return new Response("not found", { status: 404 });
  };
  /** What github.com does when the person says yes: a code bound to the PKCE challenge. */
  function approve(authorizationUrl: string): URL {
    const url = new URL(authorizationUrl);
    const code = `code-${issuedCodes.size + 1}`;
    issuedCodes.set(code, url.searchParams.get("code_challenge") ?? "");
    return new URL(`${url.searchParams.get("redirect_uri")}?code=${code}&state=${url.searchParams.get("state")}`);
  }
  return { fetch, approve, calls };
}

describe("given the GitHub preset", () => {
  const configuration = [{ kind: "github", id: "github", name: "GitHub", clientId: "Iv1.client", clientSecret: "github-secret" }] as const;

  it("should send the person to GitHub with PKCE and state, and read the verified primary address", async () => {
    const github = createFakeGitHub({
      emails: [
        { email: "old@example.test", primary: false, verified: true },
        { email: "octo@example.test", primary: true, verified: true },
      ],
    });
    const provider = createSocialProviders(configuration, { allowInsecureRequests: false, fetch: github.fetch }).get("github");
    const request = await provider!.createAuthorizationRequest(redirectUri);
    const authorizationUrl = new URL(request.authorizationUrl);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: "Iv1.client",
      redirect_uri: redirectUri,
      scope: "read:user user:email",
      code_challenge_method: "S256",
      state: request.state,
      response_type: "code",
    });
    const profile = await provider!.completeAuthorization(github.approve(request.authorizationUrl), request);
    expect(profile).toMatchObject({ uid: "583231", email: "octo@example.test", emailVerified: true, display: "The Octocat" });
    expect(github.calls).toEqual(["POST https://github.com/login/oauth/access_token", "GET https://api.github.com/user", "GET https://api.github.com/user/emails"]);
  });

  it("should treat an address GitHub has not verified as unverified", async () => {
    const github = createFakeGitHub({ emails: [{ email: "public@example.test", primary: true, verified: false }] });
    const provider = createSocialProviders(configuration, { allowInsecureRequests: false, fetch: github.fetch }).get("github");
    const request = await provider!.createAuthorizationRequest(redirectUri);
    expect(await provider!.completeAuthorization(github.approve(request.authorizationUrl), request)).toMatchObject({ email: "public@example.test", emailVerified: false });
  });

  it("should refuse an answer whose state or verifier is not this request's", async () => {
    const github = createFakeGitHub({ emails: [] });
    const provider = createSocialProviders(configuration, { allowInsecureRequests: false, fetch: github.fetch }).get("github");
    const first = await provider!.createAuthorizationRequest(redirectUri);
    const second = await provider!.createAuthorizationRequest(redirectUri);
    await expect(provider!.completeAuthorization(github.approve(first.authorizationUrl), second)).rejects.toThrow();
    await expect(provider!.completeAuthorization(github.approve(first.authorizationUrl), { ...first, codeVerifier: second.codeVerifier })).rejects.toThrow();
  });
});

describe("given an OpenID Connect provider", () => {
  it("should describe Google with its discovery document and no secret", () => {
    const providers = createSocialProviders([{ kind: "openid_connect", id: "google", name: "Google", issuer: "https://accounts.google.com", clientId: "123.apps", clientSecret: "secret" }], {
      allowInsecureRequests: false,
    });
    expect(providers.get("google")?.description).toEqual({
      id: "google",
      name: "Google",
      flows: ["provider_redirect"],
      client_id: "123.apps",
      openid_configuration_url: "https://accounts.google.com/.well-known/openid-configuration",
    });
  });

  it("should refuse an http issuer unless insecure requests are allowed (development only)", async () => {
    const local = await startLocalOpenIdProvider({ port: 0, redirectUris: [redirectUri] });
    try {
      const configuration = [{ kind: "openid_connect", id: "local", name: "Local", issuer: local.issuer, clientId: local.clientId, clientSecret: local.clientSecret }] as const;
      await expect(createSocialProviders(configuration, { allowInsecureRequests: false }).get("local")!.createAuthorizationRequest(redirectUri)).rejects.toThrow();
      const request = await createSocialProviders(configuration, { allowInsecureRequests: true }).get("local")!.createAuthorizationRequest(redirectUri);
      expect(request.authorizationUrl.startsWith(`${local.issuer}/auth?`)).toBe(true);
      expect(request.nonce).toEqual(expect.any(String));
    } finally {
      await local.close();
    }
  });
});

describe("given production", () => {
  it("should not start the local OpenID provider", async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      await expect(startLocalOpenIdProvider({ port: 0, redirectUris: [redirectUri] })).rejects.toThrow("does not start in production");
    } finally {
      process.env.NODE_ENV = previous;
    }
  });
});
