import { ReelsmithError } from "./reelsmith-error.js";

/**
 * Client-side validation failed before anything was sent. `field` names the offending
 * parameter, e.g. `"temperature"`, `"messages[1].content[0].image_url.url"`, `"seconds"`.
 *
 * @example
 * ```ts
 * try { validateChatParams({ model: "reel-chat-1", messages: [], temperature: 3 }); }
 * catch (error) { if (InvalidRequestError.isInstance(error)) console.error(error.field); }
 * ```
 */
export class InvalidRequestError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.InvalidRequestError");
  readonly field: string;
  constructor(field: string, message: string) {
    super(message, { code: "invalid_request", isRetryable: false });
    this.field = field;
  }
}
