import { ReelsmithError } from "./reelsmith-error.js";

/** Fields of an error reported by the service (HTTP status and error body). */
export interface APIErrorFields {
  status?: number | undefined;
  /** The service's error `code`, when it sent one; else the class's stable code. */
  code?: string | undefined;
  type?: string | undefined;
  param?: string | undefined;
  /** Value of the `x-request-id` response header. */
  requestId?: string | undefined;
  isRetryable?: boolean;
  cause?: unknown;
  /** What to do about it (the subclass's own advice, e.g. to check the API key). */
  hint?: string | undefined;
}

/**
 * An error response from the service: `{ error: { message, type, param, code } }` with an
 * HTTP status. Subclasses exist per status family (400, 401, 403, 404, 409, 422, 429, 5xx).
 *
 * @example
 * ```ts
 * catch (error) { if (APIError.isInstance(error)) console.error(error.status, error.requestId); }
 * ```
 */
export class APIError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.APIError");
  /** HTTP status; undefined for an error received inside an SSE stream. */
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, fields: APIErrorFields = {}, defaultCode = "api_error") {
    super(message, {
      code: fields.code ?? defaultCode,
      isRetryable: fields.isRetryable ?? false,
      cause: fields.cause,
      hint: fields.hint,
    });
    this.status = fields.status;
    this.type = fields.type;
    this.param = fields.param;
    this.requestId = fields.requestId;
  }
}
