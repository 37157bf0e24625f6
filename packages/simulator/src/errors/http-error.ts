import { SimulatorError } from "./simulator-error.js";

/** The OpenAI-style error body the simulator answers with. */
export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/**
 * An error that becomes an HTTP response: `status` plus the body
 * `{ "error": { "message", "type", "param", "code" } }`.
 *
 * @example
 * throw HttpError.badRequest("`seconds` must be at most 10 for reel-video-1", "seconds");
 */
export class HttpError extends SimulatorError {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    fields: {
      type?: string;
      param?: string | null;
      code?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message, fields.code ?? `http_${status}`);
    this.status = status;
    this.type = fields.type ?? (status >= 500 ? "server_error" : "invalid_request_error");
    this.param = fields.param ?? null;
    this.headers = fields.headers ?? {};
  }

  /** 400 naming the offending field. */
  static badRequest(message: string, param: string | null, code = "invalid_value"): HttpError {
    return new HttpError(400, message, { param, code });
  }

  /** The JSON body sent to the client. */
  toBody(): ErrorBody {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
  }
}
