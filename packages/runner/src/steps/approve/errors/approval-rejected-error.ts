import { RunnerError } from "../../../errors/runner-error.js";

/**
 * Someone rejected an `approve:` step: the step fails and the run ends `rejected` (its own
 * status, not `failed`, by its category); what depends on the gate does not run.
 * @example throw new ApprovalRejectedError("review", { by: "ana", at: "2026-01-01T10:00:00.000Z", note: "scene 2 is off" });
 */
export class ApprovalRejectedError extends RunnerError {
  readonly step: string;
  readonly by: string;
  readonly at: string;
  readonly note?: string;
  constructor(step: string, decision: { by: string; at: string; note?: string }) {
    super(
      "approval_rejected",
      `"${step}" was rejected by ${decision.by} at ${decision.at}${decision.note ? `: ${decision.note}` : ""}`,
      { category: "rejected" },
    );
    this.step = step;
    this.by = decision.by;
    this.at = decision.at;
    if (decision.note) this.note = decision.note;
  }
}
