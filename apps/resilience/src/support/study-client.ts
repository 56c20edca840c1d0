import { Agent, request } from "undici";

export type StudyAnswer = {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
  body: any;
  headers: Record<string, string | string[] | undefined>;
  milliseconds: number;
};

/**
 * One keep-alive connection pool for every simulated learner: a learner waits for each answer before its next
 * request, so `connections` equal to the number of learners never queues a learner behind another.
 */
export function createLoadAgent(connections: number): Agent {
  return new Agent({ connections, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
}

/**
 * A browser talking to the study API: its own cookie jar (`csrftoken`, `learner_id`, `sessionid`), the `csrftoken`
 * echoed in `X-CSRFToken` and the public origin in `Origin` on unsafe requests, as apps/server's CSRF check wants.
 */
export class StudyClient {
  readonly cookies = new Map<string, string>();
  private readonly server: { url: string; origin: string };
  private readonly agent: Agent;

  constructor(server: { url: string; origin: string }, agent: Agent) {
    this.server = server;
    this.agent = agent;
  }

  /** The `Cookie` header of this client's jar. */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** The study progress key the server files this client's ratings under (`study_progress.learner_key`). */
  get learnerKey(): string {
    const cookie = this.cookies.get("learner_id");
    if (!cookie) throw new Error("This client has no learner_id cookie yet: load a study page (GET …/pairs/) first.");
    // The cookie is `<learner id>.<signature>`; records are filed under the id alone.
    return `anonymous:${cookie.split(".")[0]}`;
  }

  async send(method: "GET" | "POST", path: string, json?: unknown): Promise<StudyAnswer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    if (method !== "GET") {
      headers.origin = this.server.origin;
      headers["x-csrftoken"] = this.cookies.get("csrftoken") ?? "";
    }
    let body: string | undefined;
    if (json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(json);
    }
    const started = performance.now();
    const response = await request(`${this.server.url}${path}`, { method, headers, body, dispatcher: this.agent });
    const text = await response.body.text();
    const milliseconds = performance.now() - started;
    this.storeCookies(response.headers["set-cookie"]);
    const contentType = String(response.headers["content-type"] ?? "");
    return { status: response.statusCode, body: contentType.startsWith("application/json") && text ? JSON.parse(text) : text, headers: response.headers, milliseconds };
  }

  /** Gets the `csrftoken` cookie, as a page load does. */
  async fetchCsrfToken(): Promise<void> {
    const answer = await this.send("GET", "/_allauth/browser/v1/config");
    if (answer.status !== 200 || !this.cookies.has("csrftoken")) throw new Error(`GET /_allauth/browser/v1/config answered ${answer.status} without a csrftoken cookie.`);
  }

  private storeCookies(setCookie: string | string[] | undefined): void {
    for (const cookie of typeof setCookie === "string" ? [setCookie] : (setCookie ?? [])) {
      const [pair = "", ...attributes] = cookie.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
