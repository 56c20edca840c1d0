// Issue 16's last figure: Atelier's requests per second ÷ a real django-allauth server's on the same calls, both on this
// machine and measured in turn. No allauth ships with the project: the identity bench measures one when
// ALLAUTH_COMPARISON_URL names its headless browser API (…/_allauth/browser/v1), and says it did not otherwise.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { measureRequestsPerSecond, medianOf } from "./measure-throughput.ts";

export type ComparedCall = {
  atelierRequestsPerSecond: number;
  allauthRequestsPerSecond: number;
  /** The median of the rounds' Atelier ÷ allauth, with the lowest and highest round. */
  ratio: number;
  lowestRoundRatio: number;
  highestRoundRatio: number;
};

export type AllauthComparison =
  | { measured: false; reason: string }
  | { measured: true; allauthUrl: string; allauthServer: string; rounds: number; secondsPerRun: number; loadAverage: number; calls: Record<string, ComparedCall> };

export interface AllauthComparisonInput {
  /** Atelier's …/_allauth/browser/v1, on the bench's own server. */
  atelierBase: string;
  /** The cookie Atelier's signed-in browser sends besides the session and CSRF token (the signed-in hint). */
  atelierExtraCookie: string;
  allauthUrl: string | undefined;
  rounds: number;
  secondsPerRun: number;
  logins: number;
}

// A 32-character token of the alphabet Django's CsrfViewMiddleware accepts, sent as cookie and header alike.
const csrfToken = "abcdefghijklmnopqrstuvwxyz012345";
const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The allauth URL as the bench will use it, or why it will not: only a server on this machine is loaded this hard. */
export function parseAllauthComparisonUrl(value: string | undefined): { url: string } | { reason: string } {
  if (value === undefined || value.trim() === "") {
    return { reason: "not measured: ALLAUTH_COMPARISON_URL was not set (a django-allauth headless server's …/_allauth/browser/v1 on this machine)" };
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { reason: `not measured: ALLAUTH_COMPARISON_URL is not a URL (${JSON.stringify(value)})` };
  }
  if (url.protocol !== "http:" || !loopbackHosts.has(url.hostname)) {
    return { reason: `not measured: ALLAUTH_COMPARISON_URL must be an http URL on this machine (127.0.0.1, localhost or [::1]), not ${url.origin}` };
  }
  return { url: url.href.replace(/\/+$/, "") };
}

interface Server {
  name: "atelier" | "allauth";
  base: string;
  /** What a browser of that origin sends with a POST: allauth's Django checks the Origin against its own host. */
  origin: string;
  extraCookie: string;
  sessionCookie: string;
}

function postHeadersOf(server: Server, address: string): Record<string, string> {
  return { "Content-Type": "application/json", Origin: server.origin, Cookie: `csrftoken=${csrfToken}`, "X-CSRFToken": csrfToken, "X-Forwarded-For": address };
}

async function signUp(server: Server, email: string, password: string): Promise<void> {
  const signup = await fetch(`${server.base}/auth/signup`, { method: "POST", headers: postHeadersOf(server, "10.9.0.1"), body: JSON.stringify({ email, password }) });
  if (signup.status !== 200) {
    throw new Error(`${server.name}: sign-up answered ${signup.status} (${(await signup.text()).slice(0, 200)}); the comparison needs e-mail sign-up without verification (allauth: ACCOUNT_EMAIL_VERIFICATION = "none").`);
  }
}

/** One sign-in; keeps its session cookie and answers how long it took in milliseconds. */
async function signIn(server: Server, email: string, password: string, address: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.base}/auth/login`, { method: "POST", headers: postHeadersOf(server, address), body: JSON.stringify({ email, password }) });
  await response.arrayBuffer();
  const duration = performance.now() - started;
  if (response.status !== 200) {
    throw new Error(`${server.name}: sign-in answered ${response.status}; the comparison signs in many times (allauth: ACCOUNT_RATE_LIMITS = False).`);
  }
  server.sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith("sessionid="))?.split(";")[0] ?? server.sessionCookie;
  if (server.sessionCookie === "") throw new Error(`${server.name}: sign-in set no sessionid cookie (the browser client keeps its session in one).`);
  return duration;
}

function compare(atelier: readonly number[], allauth: readonly number[]): ComparedCall {
  const ratios = atelier.map((value, index) => value / (allauth[index] as number));
  return {
    atelierRequestsPerSecond: medianOf(atelier),
    allauthRequestsPerSecond: medianOf(allauth),
    ratio: medianOf(ratios),
    lowestRoundRatio: Math.min(...ratios),
    highestRoundRatio: Math.max(...ratios),
  };
}

/**
 * GET config and GET auth/session (signed in) under autocannon, and sign-ins one after another, on both servers:
 * each round runs allauth then Atelier, so what else the machine does falls on both, and each ratio is the median of
 * the rounds'. Both are sent what a browser that has visited before sends: the CSRF cookie, and for the session call
 * the session (and Atelier's signed-in hint).
 */
export async function compareWithAllauth(input: AllauthComparisonInput): Promise<AllauthComparison> {
  const parsed = parseAllauthComparisonUrl(input.allauthUrl);
  if ("reason" in parsed) return { measured: false, reason: parsed.reason };
  const configuration = await fetch(`${parsed.url}/config`).catch((error: unknown) => {
    throw new Error(`ALLAUTH_COMPARISON_URL (${parsed.url}) does not answer: ${String(error)}.`);
  });
  await configuration.arrayBuffer();
  const allauthServer = configuration.headers.get("server") ?? "unnamed";
  if (configuration.status !== 200) throw new Error(`${parsed.url}/config answered ${configuration.status}: not an allauth headless browser API.`);

  const atelier: Server = { name: "atelier", base: input.atelierBase, origin: "http://127.0.0.1", extraCookie: `; ${input.atelierExtraCookie}`, sessionCookie: "" };
  const allauth: Server = { name: "allauth", base: parsed.url, origin: new URL(parsed.url).origin, extraCookie: "", sessionCookie: "" };
  const email = `bench-${randomUUID()}@example.ch`;
  const password = "correct horse battery staple";
  for (const server of [allauth, atelier]) await signUp(server, email, password);
  // Sign-ins alternate one by one so that both see the same moments of the machine, each from its own address as
  // identity-bench's (Atelier allows 30 a minute per address; allauth counts by its peer's address, hence its limits
  // off); the first of each warms up.
  const loginDurations = { atelier: [] as number[], allauth: [] as number[] };
  for (let index = -1; index < input.logins; index += 1) {
    const address = `10.10.${Math.floor((index + 1) / 250)}.${(index + 1) % 250}`;
    for (const server of [allauth, atelier]) {
      const duration = await signIn(server, email, password, address);
      if (index >= 0) loginDurations[server.name].push(duration);
    }
  }

  const loadAverage = Number((os.loadavg()[0] ?? 0).toFixed(2));
  const calls: Record<string, ComparedCall> = {};
  const requests = [
    // A returning visitor who is not signed in: the CSRF cookie alone (Atelier's signed-in hint without a session
    // would be cleared, an answer that writes, which a browser asks for once).
    { call: "GET config", path: "/config", cookies: () => `csrftoken=${csrfToken}` },
    { call: "GET auth/session (signed in)", path: "/auth/session", cookies: (server: Server) => `${server.sessionCookie}; csrftoken=${csrfToken}${server.extraCookie}` },
  ];
  for (const request of requests) {
    const perServer = { atelier: [] as number[], allauth: [] as number[] };
    const run = (server: Server, seconds: number) => measureRequestsPerSecond({ url: `${server.base}${request.path}`, headers: { Cookie: request.cookies(server), "X-Forwarded-For": "10.11.0.1" }, seconds });
    await run(allauth, 2); // warm-up: allauth's workers import lazily, Atelier's statements are prepared on first use
    await run(atelier, 2);
    for (let round = 0; round < input.rounds; round += 1) {
      for (const server of [allauth, atelier]) perServer[server.name].push((await run(server, input.secondsPerRun)).requestsPerSecond);
    }
    calls[request.call] = compare(perServer.atelier, perServer.allauth);
  }
  // Sequential sign-ins: requests per second is 1,000 over the mean duration; the password hash is most of it.
  const perSecond = (durations: number[]) => 1000 / (durations.reduce((sum, value) => sum + value, 0) / durations.length);
  const loginsPerSecond = { atelier: [] as number[], allauth: [] as number[] };
  const chunk = Math.max(1, Math.floor(input.logins / input.rounds));
  for (let round = 0; round < input.rounds; round += 1) {
    for (const name of ["atelier", "allauth"] as const) loginsPerSecond[name].push(perSecond(loginDurations[name].slice(round * chunk, (round + 1) * chunk)));
  }
  calls["POST auth/login, one after another"] = compare(loginsPerSecond.atelier, loginsPerSecond.allauth);
  return { measured: true, allauthUrl: parsed.url, allauthServer, rounds: input.rounds, secondsPerRun: input.secondsPerRun, loadAverage, calls };
}
