import fc from "fast-check";
import { developmentWebhookSecret } from "../billing/index.ts";
import { signWebhookPayload } from "../billing/webhook-signature.ts";
import { securityRoles, type CsrfVariant, type RouteRequest, type SecurityRole, type UploadedFile } from "./persona-client.ts";
import { bookkeepingColumns, isRefusal } from "./refusals.ts";
import { routeExpectations } from "./route-expectations.ts";
import { listRegisteredRoutes, type RegisteredRoute } from "./route-table.ts";
import { englishSubtitles, frozenNow, personaPassword, swedishSubtitles, type SecurityWorld } from "./security-world.ts";

/** The fixed seed of CI runs; set `FUZZ_SEED` to replay another. */
export const defaultFuzzSeed = 20261122;

export function readFuzzSeed(environment: NodeJS.ProcessEnv = process.env): number {
  const seed = Number(environment.FUZZ_SEED ?? defaultFuzzSeed);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be a whole number, not ${environment.FUZZ_SEED}.`);
  return seed;
}

/** An endpoint to fuzz and a request of the matrix that reaches its handler (real ids, a real body). */
export type FuzzTarget = { route: RegisteredRoute; sample: RouteRequest };

/** Every endpoint of the route table: bodies on unsafe methods, query strings, headers and path segments on all. */
export function listFuzzTargets(world: SecurityWorld): FuzzTarget[] {
  return listRegisteredRoutes(world.app).map((route) => {
    const sampleCase = routeExpectations[route.key]?.cases[0];
    if (!sampleCase) throw new Error(`The fuzzer needs a request for ${route.key}: add the route to route-expectations.ts.`);
    return { route, sample: sampleCase.request(world.resources) };
  });
}

/** What one fuzzed request did. */
export type FuzzOutcome = { status: number; refused: boolean; changedTables: string[] };

type FuzzedBody = Pick<RouteRequest, "json" | "raw" | "form" | "urlencoded">;
type FuzzedInput = {
  role: SecurityRole;
  csrf: CsrfVariant;
  pathSegments: (string | null)[];
  query: [string, string][];
  rawQuerySuffix: string;
  headers: Record<string, string>;
  extraCookie: string | null;
  body: FuzzedBody | null;
};

const fieldNames = [
  "email", "password", "key", "code", "name", "is_public", "pairIds", "is_correct", "priceId", "sessions", "credential", "id", "authenticators",
  "provider", "account", "callback_url", "process", "current_password", "new_password", "primary", "message", "recaptchaToken", "website",
  "subscription_id", "price_id", "english", "swedish", "csrfmiddlewaretoken", "__proto__", "constructor",
];
const queryNames = ["mode", "range", "cardCount", "startIndex", "endIndex", "to", "state", "code", "error", "payment", "done", "key", "next"];

function hostileStrings(world: SecurityWorld): string[] {
  const resourceValues = Object.values(world.resources).flatMap((value) => (Array.isArray(value) ? value.slice(0, 2) : [value])).map(String);
  const emails = Object.values(world.personas).flatMap((persona) => (persona.email ? [persona.email] : []));
  return [
    ...resourceValues,
    ...emails,
    personaPassword,
    "",
    " ",
    "null",
    "undefined",
    "0",
    "-1",
    "1e309",
    "9007199254740993",
    "true",
    "' OR '1'='1' --",
    "\"; DROP TABLE identity_user; --",
    "../../../../etc/passwd",
    "<script>alert(1)</script>",
    "\u0000",
    `nul\u0000inside`,
    "\u202e\u2028\ufeff",
    "🧑‍🎨".repeat(40),
    "x".repeat(5_000),
    "%",
    "%E0%A4%A",
    "ABCD-EFGH",
  ];
}

function valueArbitrary(world: SecurityWorld): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...hostileStrings(world)) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...hostileStrings(world)), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)) },
  );
}

/** Header values must be byte strings without line breaks, or `Headers` itself refuses them. */
const headerText = fc.string({ unit: "binary-ascii", maxLength: 60 }).map((text) => [...text].filter((character) => character >= " " && character !== "\u007f").join(""));

const contentTypes = [
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "multipart/form-data",
  "multipart/form-data; boundary=----not-the-real-boundary",
  "application/x-www-form-urlencoded",
  "application/xml",
  "application/json;;;=",
  "*/*",
];

function mutatedSubtitleFile(language: "en" | "sv"): fc.Arbitrary<UploadedFile> {
  const original = language === "en" ? englishSubtitles : swedishSubtitles;
  return fc
    .record({ cut: fc.nat({ max: original.length }), insert: fc.oneof(fc.constant(""), fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom("<!DOCTYPE tt [<!ENTITY x \"x\">]>", "&x;", "<p begin=\"99:99:99\">", "\u0000")), keep: fc.boolean() })
    .chain(({ cut, insert, keep }) =>
      fc.record({
        fileName: fc.constantFrom(`Ferry.${language}.xml`, "ferry.XML", "ferry.srt", "../../ferry.xml", "", "名前.xml"),
        content: fc.constant(keep ? original : `${original.slice(0, cut)}${insert}${original.slice(cut)}`),
        type: fc.constantFrom("text/xml", "application/octet-stream", ""),
      }),
    );
}

function bodyArbitrary(world: SecurityWorld, target: FuzzTarget): fc.Arbitrary<FuzzedBody | null> {
  const value = valueArbitrary(world);
  const sampleJson = typeof target.sample.json === "object" && target.sample.json !== null && !Array.isArray(target.sample.json) ? (target.sample.json as Record<string, unknown>) : {};
  const formValue: fc.Arbitrary<string | UploadedFile> = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...hostileStrings(world)) },
    { weight: 1, arbitrary: mutatedSubtitleFile("en") },
    { weight: 1, arbitrary: mutatedSubtitleFile("sv") },
    { weight: 1, arbitrary: fc.record({ fileName: headerText, content: fc.uint8Array({ maxLength: 200 }), type: fc.constantFrom("text/xml", "") }) },
  );
  const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames, ...Object.keys(sampleJson), ...Object.keys(target.sample.form ?? {})) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  const sampleForm = target.sample.form ?? target.sample.urlencoded ?? {};
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ changes: fc.dictionary(fieldName, value, { maxKeys: 4 }), keepSample: fc.boolean() }).map(({ changes, keepSample }) => ({ json: { ...(keepSample ? sampleJson : {}), ...changes } })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.record({ body: fc.string({ unit: "binary", maxLength: 300 }), contentType: fc.option(fc.constantFrom(...contentTypes), { nil: null }) }).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.record({ body: fc.uint8Array({ maxLength: 300 }), contentType: fc.option(fc.constantFrom(...contentTypes), { nil: null }) }).map((raw) => ({ raw })) },
    { weight: 3, arbitrary: fc.record({ changes: fc.dictionary(fieldName, formValue, { maxKeys: 4 }), keepSample: fc.boolean() }).map(({ changes, keepSample }) => ({ form: { ...(keepSample ? sampleForm : {}), ...changes } })) },
    { weight: 1, arbitrary: fc.dictionary(fieldName, fc.constantFrom(...hostileStrings(world)), { maxKeys: 4 }).map((urlencoded) => ({ urlencoded: { ...sampleForm, ...urlencoded } as Record<string, string> })) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

function inputArbitrary(world: SecurityWorld, target: FuzzTarget): fc.Arbitrary<FuzzedInput> {
  const patternSegments = target.route.path.split("/");
  const segmentCount = patternSegments.length;
  const hostile = hostileStrings(world);
  const segment = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constantFrom(...hostile).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom("%", "%00", "..", "%2e%2e", "..%2f..%2f", "%E0%A4%A", "%ff%fe", "a%2Fb", ";", "*", "~", "index.html") },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
  );
  const headers = fc.record(
    {
      "Content-Type": fc.constantFrom(...contentTypes),
      Accept: fc.constantFrom("application/json", "text/html", "*/*", "image/webp", "x/\u00ff"),
      "Accept-Encoding": fc.constantFrom("gzip", "br", "deflate", "*", "identity;q=0", "gzip;q=nonsense"),
      "Accept-Language": headerText,
      "X-Forwarded-For": fc.oneof(headerText, fc.constantFrom("", "::1", "not-an-address", "10.0.0.1, 203.0.113.9", "999.999.999.999", "unknown")),
      "User-Agent": headerText,
      "X-Session-Token": fc.oneof(headerText, fc.constantFrom(...securityRoles.map((role) => world.personas[role].appSessionToken ?? ""))),
      "X-Email-Verification-Key": headerText,
      "X-Password-Reset-Key": headerText,
      "Stripe-Signature": fc.oneof(headerText, fc.constantFrom("t=1,v1=00", "t=abc,v1=", ",,,", "v1=deadbeef")),
      "X-HTTP-Method-Override": fc.constantFrom("DELETE", "PUT", "GET"),
      Origin: fc.constantFrom("null", "http://localhost:3000.evil.example", "HTTP://LOCALHOST:3000"),
    },
    { requiredKeys: [] },
  );
  const extraCookie = fc.option(
    fc.oneof(
      fc.constantFrom("sessionid=garbage", "learner_id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "learner_id=../../x", "atelier_signed_in=1", "csrftoken=", "sessionid="),
      headerText.map((text) => `x=${text.replace(/[;,\s]/g, "")}`),
    ),
    { nil: null },
  );
  return fc.record({
    role: fc.constantFrom(...securityRoles),
    csrf: fc.oneof({ weight: 9, arbitrary: fc.constant<CsrfVariant>("valid") }, { weight: 1, arbitrary: fc.constantFrom<CsrfVariant>("missing-token", "wrong-token", "foreign-origin") }),
    pathSegments: fc.array(segment, { minLength: segmentCount, maxLength: segmentCount }),
    query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...queryNames), fc.string({ maxLength: 8 })), fc.oneof(fc.constantFrom(...hostile), fc.string({ maxLength: 20 }))), { maxLength: 4 }),
    rawQuerySuffix: fc.constantFrom("", "", "", "&%", "&a=%E0%A4%A", "&&==&", "&mode=study&mode=test", "&range[]=all"),
    headers,
    extraCookie,
    body: target.route.method === "GET" ? fc.constant(null) : bodyArbitrary(world, target),
  });
}

/** The path of the sample with some of its parameter segments (or, for the site's `/*`, any segment) replaced. */
function fuzzedPath(target: FuzzTarget, input: FuzzedInput): string {
  const [samplePath = "", sampleQuery = ""] = target.sample.path.split("?");
  const patternSegments = target.route.path.split("/");
  const sampleSegments = samplePath.split("/");
  const segments = sampleSegments.map((sampleSegment, index) => {
    const pattern = patternSegments[index] ?? "";
    const replacement = input.pathSegments[index];
    return (pattern.startsWith(":") || pattern === "*") && replacement !== null && replacement !== undefined ? replacement : sampleSegment;
  });
  const query = [sampleQuery, ...input.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)].filter(Boolean).join("&") + input.rawQuerySuffix;
  return `${segments.join("/")}${query ? `?${query}` : ""}`;
}

function toRequest(world: SecurityWorld, target: FuzzTarget, input: FuzzedInput): RouteRequest {
  const persona = world.personas[input.role];
  const headers: Record<string, string> = { ...target.sample.headers, ...input.headers };
  if (input.body?.json !== undefined || input.body?.form !== undefined || input.body?.urlencoded !== undefined) {
    // The body's own Content-Type (and multipart boundary) comes from the body.
    delete headers["Content-Type"];
  }
  if (input.extraCookie !== null) {
    headers.Cookie = [...[...persona.cookies].map(([name, value]) => `${name}=${value}`), input.extraCookie].join("; ");
  }
  const webhookPayload = input.body?.json !== undefined ? JSON.stringify(input.body.json) : typeof input.body?.raw?.body === "string" ? input.body.raw.body : null;
  if (target.route.key === "POST /stripe/webhook" && webhookPayload !== null && input.headers["Stripe-Signature"] === undefined) {
    // Signed with the (public) development secret, so that the handler also reads fuzzed events, not only signatures.
    headers["Stripe-Signature"] = signWebhookPayload(webhookPayload, developmentWebhookSecret, () => frozenNow);
  }
  return { path: fuzzedPath(target, input), ...(input.body ?? {}), headers };
}

/**
 * Sends one request and checks the properties: no 5xx, a readable answer (valid JSON when it says JSON), and no
 * stored change (but bookkeeping) when the answer refuses. Puts the world back afterwards.
 */
export async function sendCheckedRequest(world: SecurityWorld, role: SecurityRole, method: string, request: RouteRequest, csrf: CsrfVariant = "valid"): Promise<FuzzOutcome> {
  try {
    const answer = await world.send(role, method, request, { csrf });
    const describe = () => `${method} ${request.path} as ${role} answered ${answer.status}: ${answer.text.slice(0, 200)}`;
    if (answer.status >= 500) throw new Error(`A server error: ${describe()}`);
    if ((answer.headers.get("content-type") ?? "").startsWith("application/json") && answer.text !== "") {
      try {
        JSON.parse(answer.text);
      } catch {
        throw new Error(`An answer that says JSON but is not: ${describe()}`);
      }
    }
    const refused = isRefusal(method, request.path.split("?")[0] ?? "", answer.status);
    const changedTables = refused ? await world.changedTables(bookkeepingColumns) : [];
    if (changedTables.length > 0) throw new Error(`A refused request changed ${changedTables.join(", ")}: ${describe()}`);
    return { status: answer.status, refused, changedTables };
  } finally {
    await world.restore();
  }
}

function methodOf(target: FuzzTarget): string {
  return target.route.method === "ALL" ? "POST" : target.route.method;
}

/** Values that break naive code: PostgreSQL refuses U+0000, long and astral text, encoded traversal. */
const hostileSegments = ["x%00y", "x".repeat(3_000)];
const hostileFieldValues = ["x\u0000y", "x".repeat(20_000), {}];

/**
 * The deterministic half of the fuzzing: the sample request of every endpoint with each path parameter, each body
 * field and the query string replaced, one at a time, by each hostile value; and a body that cannot be read under each
 * content type.
 */
export function listHostileValueRequests(target: FuzzTarget): RouteRequest[] {
  const { sample } = target;
  const [samplePath = "", sampleQuery = ""] = sample.path.split("?");
  const withQuery = (path: string) => (sampleQuery ? `${path}?${sampleQuery}` : path);
  const requests: RouteRequest[] = [];
  const patternSegments = target.route.path.split("/");
  const sampleSegments = samplePath.split("/");
  patternSegments.forEach((pattern, index) => {
    if (!pattern.startsWith(":") && pattern !== "*") return;
    for (const hostile of hostileSegments) requests.push({ ...sample, path: withQuery(sampleSegments.map((segment, position) => (position === index ? hostile : segment)).join("/")) });
  });
  requests.push({ ...sample, path: `${samplePath}?${[sampleQuery, ...queryNames.map((name) => `${name}=x%00y`)].filter(Boolean).join("&")}` });
  if (target.route.method !== "GET") {
    for (const contentType of ["multipart/form-data", "multipart/form-data; boundary=----atelier", "application/x-www-form-urlencoded", "application/json"]) {
      requests.push({ path: sample.path, headers: sample.headers, raw: { body: "------atelier\r\nnot a part\u00ff{", contentType } });
    }
  }
  const json = sample.json;
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    for (const field of Object.keys(json)) for (const hostile of hostileFieldValues) requests.push({ ...sample, json: { ...json, [field]: hostile } });
  }
  for (const [kind, fields] of [["urlencoded", sample.urlencoded], ["form", sample.form]] as const) {
    for (const field of Object.keys(fields ?? {})) {
      for (const hostile of hostileFieldValues) {
        if (typeof hostile === "string") requests.push({ ...sample, [kind]: { ...fields, [field]: hostile } });
      }
    }
  }
  return requests;
}

/** Sends every hostile-value request of an endpoint as the owner, who reaches the most code; returns the outcomes. */
export async function sweepHostileValues(world: SecurityWorld, target: FuzzTarget): Promise<FuzzOutcome[]> {
  const outcomes: FuzzOutcome[] = [];
  for (const request of listHostileValueRequests(target)) outcomes.push(await sendCheckedRequest(world, "owner", methodOf(target), request));
  return outcomes;
}

/**
 * The property of one endpoint, for `fc.assert` (tests) or `fc.check` (the benchmark). `onOutcome` sees every answer.
 *
 * @example
 * await fc.assert(createEndpointProperty(world, target), { seed: readFuzzSeed(), numRuns: 12 });
 */
export function createEndpointProperty(world: SecurityWorld, target: FuzzTarget, onOutcome?: (outcome: FuzzOutcome) => void): fc.IAsyncProperty<[FuzzedInput]> {
  return fc.asyncProperty(inputArbitrary(world, target), async (input) => {
    const outcome = await sendCheckedRequest(world, input.role, methodOf(target), toRequest(world, target, input), input.csrf);
    onOutcome?.(outcome);
  });
}
