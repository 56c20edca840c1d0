/** What every error thrown by the allauth client has in common. */
export class AllauthClientError extends Error {
  /** The HTTP method of the call that failed. */
  readonly method: string;
  /** The full URL of the call that failed. */
  readonly url: string;

  constructor(message: string, details: { method: string; url: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.name = "AllauthClientError";
    this.method = details.method;
    this.url = details.url;
  }
}

/**
 * The request never got an answer: the network is down, the server is unreachable, CORS refused it, or it timed
 * out. The original error is in `cause`.
 *
 * @example
 * try {
 *   await client.getAuthenticationStatus();
 * } catch (error) {
 *   if (error instanceof AllauthNetworkError) showOfflineNotice();
 * }
 */
export class AllauthNetworkError extends AllauthClientError {
  constructor(details: { method: string; url: string; cause: unknown }) {
    super(
      `${details.method} ${details.url} got no answer (${describeCause(details.cause)}); check the network and that the allauth server is reachable at this base URL.`,
      details,
    );
    this.name = "AllauthNetworkError";
  }
}

/**
 * The server answered, but not as django-allauth's headless API does: the body is not JSON, its shape does not match
 * the schema of the call, or the status is one allauth never sends for it.
 *
 * @example
 * catch (error) {
 *   if (error instanceof AllauthUnexpectedResponseError) console.error(error.status, error.message);
 * }
 */
export class AllauthUnexpectedResponseError extends AllauthClientError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The schema problems, one sentence each, when the body was JSON. */
  readonly issues: readonly string[];

  constructor(
    message: string,
    details: { method: string; url: string; status: number; issues?: readonly string[]; cause?: unknown },
  ) {
    super(message, details);
    this.name = "AllauthUnexpectedResponseError";
    this.status = details.status;
    this.issues = details.issues ?? [];
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
