import { RunnerError } from "./runner-error.js";

/**
 * A step (or fan-out item) ran longer than its `timeout:`.
 * @example throw new StepTimeoutError("plan", undefined, 30_000);
 */
export class StepTimeoutError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  readonly timeoutMs: number;
  constructor(step: string, index: number | undefined, timeoutMs: number) {
    const where = index === undefined ? `Step "${step}"` : `Step "${step}" item ${index}`;
    // Another attempt (with `retry:`) may finish in time.
    super("step_timeout", `${where} timed out after ${timeoutMs} ms (timeout: in the pipeline).`, {
      isRetryable: true,
    });
    this.step = step;
    this.index = index;
    this.timeoutMs = timeoutMs;
  }
}
