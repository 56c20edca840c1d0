/**
 * The browser's side at the local OpenID provider, driven with fetch and a cookie jar: it follows the provider's
 * redirects, fills in its login page and answers its consent page, until the provider sends it back to the site.
 */
export type ProviderSignInChoice = {
  /** A ready-made test user (`ada`, `linus`, `grace`) or any account id with the fields below. */
  accountId: string;
  name?: string;
  email?: string;
  emailVerified?: boolean;
  /** Use the ready-made user's details as they are. */
  preset?: boolean;
  consent?: "allow" | "deny";
};

export async function signInAtLocalProvider(authorizationUrl: string, choice: ProviderSignInChoice, siteOrigin: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let method = "GET";
  let body: URLSearchParams | undefined;

  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        ...(cookies.size > 0 ? { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: body?.toString(),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const separator = pair.indexOf("=");
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    method = "GET";
    body = undefined;
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.origin === siteOrigin) {
        return next;
      }
      url = next.href;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) {
      throw new Error(`The provider answered ${response.status} at ${url}: ${html.slice(0, 300)}`);
    }
    const interaction = new URL(url).pathname;
    if (html.includes('name="account_id"')) {
      method = "POST";
      url = new URL(`${interaction}/login`, url).href;
      body = new URLSearchParams({ account_id: choice.accountId, name: choice.name ?? "", email: choice.email ?? "", ...(choice.preset ? { preset: "1" } : {}), ...(choice.emailVerified ? { email_verified: "on" } : {}) });
    } else if (html.includes("/confirm")) {
      method = "POST";
      url = new URL(`${interaction}/${choice.consent === "deny" ? "abort" : "confirm"}`, url).href;
    } else {
      throw new Error(`Unexpected provider page at ${url}: ${html.slice(0, 300)}`);
    }
  }
  throw new Error("The provider never sent the browser back to the site.");
}
