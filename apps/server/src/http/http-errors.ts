/**
 * An error whose status and message may be shown to the client as `{ message }`.
 * Thrown anywhere in a request; `app.onError` turns it into the response.
 *
 * @example
 * throw new HttpError(404, "There is no painting with this identifier.");
 */
export class HttpError extends Error {
  readonly status: number;
  readonly publicMessage: string;
  readonly headers: Record<string, string>;

  constructor(status: number, publicMessage: string, options: { cause?: unknown; headers?: Record<string, string> } = {}) {
    super(publicMessage, { cause: options.cause });
    this.name = "HttpError";
    this.status = status;
    this.publicMessage = publicMessage;
    this.headers = options.headers ?? {};
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
