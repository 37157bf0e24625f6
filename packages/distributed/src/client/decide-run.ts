import { ApprovalRefusedError } from "@reelsmith/runner/errors";
import { planDecision, replayJournal } from "@reelsmith/runner/internal";
import { type ApprovalDecision, type DecisionRequest, gatesOf } from "@reelsmith/runner/runs";
import { DECISION_TOPIC, type DecisionMessage } from "../workflows/approval-wait.js";
import { approvalWaitId } from "../workflows/unit-job.js";
import type { Coordinator } from "./connect.js";

/** A decision recorded on a distributed run's gate. */
export interface RecordedDecision {
  step: string;
  decision: ApprovalDecision;
  /** The attempt that stopped at the gate (the run goes on with the next one). */
  attempt: number;
}

/**
 * Approves or rejects the gate a run in the database waits at, from any machine: the
 * decision is journaled in the run's journal (who, when, why), then sent as a durable message
 * to the run's wait, which takes the run on to its next attempt (an approved gate goes on, a
 * rejected one ends the run `rejected`). Throws the runner's ApprovalRefusedError when the run
 * does not wait at such a gate (nothing is written or sent).
 * @example await decideRun(coordinator, runId, { approved: true, by: "ana", note: "ok" });
 */
export async function decideRun(
  coordinator: Coordinator,
  runId: string,
  request: DecisionRequest,
): Promise<RecordedDecision> {
  const run = await coordinator.store.getRun(runId);
  if (!run) throw new Error(`no run ${runId} in the database (see \`reelsmith status\`)`);
  const state = replayJournal(await coordinator.store.journalRecords(runId));
  if (run.status !== "waiting") {
    // Its gates may be known, but no wait is there to take the run on: say where it stands.
    const waiting = gatesOf(state).filter((gate) => gate.state === "waiting");
    throw new ApprovalRefusedError(
      "not_waiting",
      `run ${runId} is ${run.cancelRequested && !run.endedAt ? "cancelling" : run.status}, not waiting at a gate; nothing to ${request.approved ? "approve" : "reject"}`,
      waiting.map((gate) => gate.step),
    );
  }
  const { gate, decision, record } = planDecision(state, request, `run ${runId}`);
  await coordinator.store.journal(runId).append(record);
  const message: DecisionMessage = { step: gate.step, approved: decision.approved };
  await coordinator.dbos.send(approvalWaitId(runId, run.attempt), message, DECISION_TOPIC);
  return { step: gate.step, decision, attempt: run.attempt };
}
