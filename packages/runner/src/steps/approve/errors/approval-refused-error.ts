import { RunnerError } from "../../../errors/runner-error.js";

/**
 * An approval or rejection that cannot be recorded: the run waits at no gate
 * (`not_waiting`), the step named is not a waiting gate (`unknown_gate`), several gates wait
 * and none was named (`gate_ambiguous`), or the gate's timeout has passed (`approval_expired`).
 * Nothing was written.
 * @example throw new ApprovalRefusedError("not_waiting", "runs/x is not waiting at a gate");
 */
export class ApprovalRefusedError extends RunnerError {
  /** The gates that wait now (their step ids). */
  readonly waiting: string[];
  constructor(
    code: "not_waiting" | "unknown_gate" | "gate_ambiguous" | "approval_expired",
    message: string,
    waiting: string[] = [],
  ) {
    super(code, message, {
      category: "invalid",
      hint: "see where the run stands with `reelsmith report RUN_DIR` (or `reelsmith status RUN_ID --database …`)",
    });
    this.waiting = waiting;
  }
}
