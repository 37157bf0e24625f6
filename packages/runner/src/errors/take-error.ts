import { RunnerError } from "./runner-error.js";
import type { TakeErrorCode } from "./runner-error-code.js";

/**
 * A retake or a pick that cannot be done as asked: an unknown step, item or take, a take
 * whose files are gone, a take still being made. Nothing was sent or changed.
 * @example throw new TakeError("unknown_take", "runs/x", "`clips` #1 has takes 1–2; there is no take 5", { step: "clips", index: 1 });
 */
export class TakeError extends RunnerError {
  readonly runDir: string;
  /** What is wrong, without the run directory. */
  readonly reason: string;
  readonly step?: string;
  readonly index?: number;
  readonly take?: number;
  constructor(
    code: TakeErrorCode,
    runDir: string,
    reason: string,
    at: { step?: string; index?: number; take?: number } = {},
  ) {
    super(code, `${runDir}: ${reason}`);
    this.runDir = runDir;
    this.reason = reason;
    if (at.step !== undefined) this.step = at.step;
    if (at.index !== undefined) this.index = at.index;
    if (at.take !== undefined) this.take = at.take;
  }
}
