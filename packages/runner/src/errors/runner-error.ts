import { type ErrorCategory, ReelsmithError } from "@reelsmith/core/errors";
import type { RunnerErrorCode } from "./runner-error-code.js";

/** What a runner error class passes to its base besides its code and message. */
export interface RunnerErrorOptions {
  cause?: unknown;
  isRetryable?: boolean;
  /** What the error means for the caller (the CLI's exit code, the run's status); `failed` unless given. */
  category?: ErrorCategory;
  /** What to do about it, in one sentence. */
  hint?: string;
}

/**
 * Base class of every error the runner throws itself, a {@link ReelsmithError} like every
 * reelsmith error. Each class has a stable snake_case `code`, says whether repeating the work
 * may succeed (`isRetryable`, false unless the class says otherwise), what it means for the
 * caller (`category`: `invalid` for what is refused before anything is sent, `budget`,
 * `waiting`, `rejected`, `interrupted`, else `failed`), and is recognised with its static
 * `isInstance` (a `Symbol.for("reelsmith.error.<Name>")` marker per class, so the check also
 * holds across two installed copies of the package). Serialises to plain JSON for the journal
 * and events (its category included, so an error read back still maps to its exit code).
 *
 * Its `code` is one of {@link RunnerErrorCode} (a class cannot pass another); a package
 * that builds on the runner (distributed) gives its own classes their own codes as `Code`.
 * @example if (BudgetExceededError.isInstance(error)) console.log(error.code, error.category);
 */
export class RunnerError<Code extends string = RunnerErrorCode> extends ReelsmithError {
  declare readonly code: Code;
  constructor(code: NoInfer<Code>, message: string, options: RunnerErrorOptions = {}) {
    super(message, { ...options, code });
  }

  /** The error as JSON, without its cause (a step's error names its cause in its message). */
  override toJSON(): Record<string, unknown> {
    const { cause: _cause, ...json } = super.toJSON();
    return json;
  }
}
