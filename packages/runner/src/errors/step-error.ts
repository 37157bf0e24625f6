import { RunnerError } from "./runner-error.js";
import type { StepErrorCode } from "./runner-error-code.js";

/**
 * A step (or one fan-out item) failed; the message names the step, the item, where the step
 * is written (`file:line:column`, when the pipeline came from a file) and the cause.
 * @example throw new StepError("clips", 2, cause, "step_failed", "storyboard.yaml:40:5");
 */
export class StepError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  /** Where the step is written: `file:line:column`. */
  readonly location: string | undefined;
  /** The cause's own code, when it has one (e.g. `approval_timeout`, `rate_limited`). */
  readonly causeCode?: string;
  constructor(
    step: string,
    index: number | undefined,
    cause: unknown,
    code: StepErrorCode = "step_failed",
    location?: string,
  ) {
    const item = index === undefined ? `step "${step}"` : `step "${step}" item ${index}`;
    const where = location ? `${item} (${location})` : item;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const retryable = (cause as { isRetryable?: unknown } | undefined)?.isRetryable;
    super(code, `${where} failed: ${reason}`, { cause, isRetryable: retryable === true });
    this.step = step;
    this.index = index;
    this.location = location;
    const causeCode = (cause as { code?: unknown } | undefined)?.code;
    if (typeof causeCode === "string") this.causeCode = causeCode;
  }
}
