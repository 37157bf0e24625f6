import { RunnerError } from "../../../errors/runner-error.js";

/**
 * An `approve:` step's `timeout` passed without a decision: the step fails (the run resumed
 * after the deadline, or a distributed run's wait expired).
 * @example throw new ApprovalTimeoutError("review", "2026-01-01T12:00:00.000Z");
 */
export class ApprovalTimeoutError extends RunnerError {
  readonly step: string;
  readonly deadline: string;
  constructor(step: string, deadline: string) {
    super(
      "approval_timeout",
      `nobody approved or rejected "${step}" before its timeout (${deadline}); change the step's timeout and run the pipeline again to ask again`,
    );
    this.step = step;
    this.deadline = deadline;
  }
}
