import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type HttpErrorOptions = {
  cause?: unknown;
  headers?: Record<string, string>;
  /** An allauth-style error code (`csrf_failed`): the answer then also carries `status` and `errors: [{ message, code }]`. */
  code?: string;
  /** Raised by the server itself (CSRF, a database away), not by one API: the study API's answer keeps `message` too. */
  fromTheServer?: boolean;
};

/**
 * An error whose status and message may be shown to the client; Hono's `HTTPException` with the headers and code the
 * answer needs. Thrown anywhere in a request; the server's one `onError` (`http/error-responses.ts`) answers it in the
 * shape of the API the path belongs to.
 *
 * @example
 * throw new HttpError(404, "There is no painting with this identifier.");
 */
export class HttpError extends HTTPException {
  readonly headers: Record<string, string>;
  readonly code: string | undefined;
  readonly fromTheServer: boolean;

  constructor(status: ContentfulStatusCode, publicMessage: string, options: HttpErrorOptions = {}) {
    super(status, { message: publicMessage, cause: options.cause });
    this.name = "HttpError";
    this.headers = options.headers ?? {};
    this.code = options.code;
    this.fromTheServer = options.fromTheServer ?? false;
  }

  /** The sentence the client is shown. */
  get publicMessage(): string {
    return this.message;
  }
}

/**
 * The request is malformed or its content is invalid (status 400).
 *
 * @example
 * throw new RequestValidationError("Please enter your name.");
 */
export class RequestValidationError extends HttpError {
  constructor(publicMessage: string, options: { cause?: unknown } = {}) {
    super(400, publicMessage, options);
    this.name = "RequestValidationError";
  }
}

/**
 * The client sent too many requests in a time window (status 429).
 *
 * @example
 * throw new RateLimitError("You have sent too many messages.", 120);
 */
export class RateLimitError extends HttpError {
  constructor(publicMessage: string, retryAfterSeconds: number) {
    super(429, publicMessage, { headers: { "Retry-After": String(retryAfterSeconds) } });
    this.name = "RateLimitError";
  }
}

export const internalServerErrorMessage = "Something went wrong on our side. Please try again later.";
