import { RunnerError } from "./runner-error.js";

/**
 * A step (or one fan-out item) failed; the message names the step, the item and the cause.
 * @example throw new StepError("clips", 2, cause);
 */
export class StepError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  /** The cause's own code, when it has one (e.g. `approval_timeout`, `rate_limited`). */
  readonly causeCode?: string;
  constructor(step: string, index: number | undefined, cause: unknown, code = "step_failed") {
    const where = index === undefined ? `step "${step}"` : `step "${step}" item ${index}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const retryable = (cause as { isRetryable?: unknown } | undefined)?.isRetryable;
    super(code, `${where} failed: ${reason}`, { cause, isRetryable: retryable === true });
    this.step = step;
    this.index = index;
    const causeCode = (cause as { code?: unknown } | undefined)?.code;
    if (typeof causeCode === "string") this.causeCode = causeCode;
  }
}
