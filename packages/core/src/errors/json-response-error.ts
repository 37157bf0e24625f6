import type { Usage } from "../chat/types.js";
import { ReelsmithError } from "./reelsmith-error.js";

/**
 * `chat.json()` gave up: the model's last reply was not JSON or did not match the schema
 * after every attempt. Carries the raw text, the finish reason, the summed usage and the
 * validation errors of the last attempt.
 *
 * @example
 * ```ts
 * catch (error) { if (JSONResponseError.isInstance(error)) console.error(error.rawText, error.validationErrors); }
 * ```
 */
export class JSONResponseError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.JSONResponseError");
  readonly rawText: string;
  readonly finishReason: string | null;
  readonly usage: Usage;
  readonly validationErrors: string[];
  readonly attempts: number;
  constructor(
    message: string,
    fields: {
      rawText: string;
      finishReason: string | null;
      usage: Usage;
      validationErrors: string[];
      attempts: number;
    },
  ) {
    super(message, { code: "json_response_invalid", isRetryable: false });
    this.rawText = fields.rawText;
    this.finishReason = fields.finishReason;
    this.usage = fields.usage;
    this.validationErrors = fields.validationErrors;
    this.attempts = fields.attempts;
  }
}
