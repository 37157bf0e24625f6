import { StepWaitingError } from "../../errors/step-waiting-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import { parseDuration } from "../../executor/parse-duration.js";
import type { StepRunContext } from "../step-kind.js";
import {
  APPROVAL_DECISION,
  APPROVAL_WAITING,
  type ApprovalDecision,
  type ApprovalWaiting,
  readDecision,
} from "./approval-journal.js";
import type { ApproveStepSpec } from "./approve-schema.js";
import { ApprovalRejectedError } from "./errors/approval-rejected-error.js";
import { ApprovalTimeoutError } from "./errors/approval-timeout-error.js";

/** The outputs of an approved gate. */
function outputsOf(decision: ApprovalDecision): Record<string, unknown> {
  return { approved: true, by: decision.by, at: decision.at, note: decision.note ?? "" };
}

/**
 * Runs a gate: with a journaled decision, the step succeeds (approved: its outputs say who,
 * when and why) or fails (rejected: the run ends `rejected`); with `autoApprove` the run
 * approves it itself (by "auto"), journaled the same way; else it journals since when it
 * waits (once: a resume keeps the first deadline) and stops the step as `waiting`, or fails
 * it with approval_timeout once its deadline has passed.
 */
export async function runApproveStep(
  spec: ApproveStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const { journal, stepId } = context;
  const waiting = journal.recall(APPROVAL_WAITING) as Partial<ApprovalWaiting> | undefined;
  const decided = readDecision(journal.recall(APPROVAL_DECISION));
  if (decided) {
    if (waiting?.deadline && Date.parse(decided.at) > Date.parse(waiting.deadline))
      throw new ApprovalTimeoutError(stepId, waiting.deadline);
    if (!decided.approved) throw new ApprovalRejectedError(stepId, decided);
    return outputsOf(decided);
  }
  if (executionExtras(context)?.autoApprove) {
    const decision: ApprovalDecision = { approved: true, by: "auto", at: new Date().toISOString() };
    await journal.record(APPROVAL_DECISION, { ...decision });
    return outputsOf(decision);
  }
  const now = Date.now();
  let since = waiting?.since;
  let deadline = waiting?.deadline;
  if (!since) {
    since = new Date(now).toISOString();
    const limit = parseDuration(spec.timeout);
    deadline = limit === undefined ? undefined : new Date(now + limit).toISOString();
    const fact: ApprovalWaiting = {
      message: spec.message,
      since,
      ...(deadline ? { deadline } : {}),
    };
    await journal.record(APPROVAL_WAITING, { ...fact });
  }
  if (deadline && now > Date.parse(deadline)) throw new ApprovalTimeoutError(stepId, deadline);
  throw new StepWaitingError(stepId, `waits for approval: ${spec.message}`, {
    message: spec.message,
    since,
    ...(deadline ? { deadline } : {}),
    ...(spec.show ? { show: spec.show } : {}),
  });
}
