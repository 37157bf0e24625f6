import { ReelsmithError } from "./reelsmith-error.js";

/** One problem of a request found before anything was sent. */
export interface RequestProblem {
  field: string;
  message: string;
}

/**
 * Client-side validation failed before anything was sent. `field` names the (first)
 * offending parameter, e.g. `"temperature"`, `"messages[1].content[0].image_url.url"`,
 * `"seconds"`, `"params.seed"`; `problems` lists every one found.
 *
 * @example
 * ```ts
 * try { validateChatParams({ model: "gpt-4o-mini", messages: [], temperature: 3 }); }
 * catch (error) { if (InvalidRequestError.isInstance(error)) console.error(error.field, error.problems); }
 * ```
 */
export class InvalidRequestError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.InvalidRequestError");
  readonly field: string;
  readonly problems: readonly RequestProblem[];
  constructor(field: string, message: string, problems?: readonly RequestProblem[]) {
    super(message, { code: "invalid_request", isRetryable: false, category: "invalid" });
    this.field = field;
    this.problems = problems ?? [{ field, message }];
  }
}
