import { DBOS } from "@dbos-inc/dbos-sdk";
import { withReconnect } from "../database/pool.js";
import { queueNames } from "../service.js";
import type { WorkerContext } from "../worker/worker-context.js";
import { workerContext } from "../worker/worker-context.js";
import { applicationVersion, runWorkflowId, workflowNames } from "./unit-job.js";

/** The message topic a decision on a gate travels on. */
export const DECISION_TOPIC = "approval";

/** How long one wait for a message lasts before the run is looked at again (s). */
const RUN_CHECK_SECONDS = 60;

/** What a gate's decision message carries (the decision itself is in the run's journal). */
export interface DecisionMessage {
  step: string;
  approved: boolean;
}

/**
 * Takes a run stopped at its gates on to its next attempt (enqueued on the runs queue), once:
 * a recovered wait, or one that races a `resume`, finds the run moved on and enqueues the
 * same workflow id again, which DBOS keeps as one.
 * @example await continueAfterGates(context, runId, 1);
 */
export async function continueAfterGates(
  context: Pick<WorkerContext, "store" | "dbos">,
  runId: string,
  attempt: number,
): Promise<void> {
  const next = await withReconnect(() => context.store.continueAfterGates(runId, attempt));
  if (next !== attempt + 1) return; // resumed by other means, or gone
  await withReconnect(() =>
    context.dbos.enqueue(
      {
        queueName: queueNames.runs,
        workflowName: workflowNames.run,
        workflowID: runWorkflowId(runId, next),
        appVersion: applicationVersion,
      },
      runId,
      next,
    ),
  );
}

/**
 * A run's attempt stopped at its gates: this workflow waits for a decision with DBOS's
 * durable messages (`DBOS.recv`), on the approvals queue, which has no concurrency limit, so
 * the wait holds no place of any worker and no unit's. A message sent while no worker runs it
 * waits in the database; a worker that dies while it waits leaves it PENDING, and another
 * worker recovers it (see `executor-liveness.ts`) and waits on. When a decision comes, or the
 * earliest gate's deadline passes, the run goes on to its next attempt, whose gates read the
 * decisions from the journal (or fail with approval_timeout). It ends without doing anything
 * when the run moved on by other means (a `resume`, a cancel).
 */
async function approvalWaitWorkflow(
  runId: string,
  attempt: number,
  deadline: string | null,
): Promise<"decided" | "expired" | "moved_on"> {
  const context = workerContext();
  const until = deadline === null ? Number.POSITIVE_INFINITY : Date.parse(deadline);
  let outcome: "decided" | "expired" | undefined;
  while (outcome === undefined) {
    const left = until - Date.now();
    if (left <= 0) {
      outcome = "expired";
      break;
    }
    const seconds = Math.max(1, Math.ceil(Math.min(left, RUN_CHECK_SECONDS * 1000) / 1000));
    const message = await DBOS.recv<DecisionMessage>(DECISION_TOPIC, { timeoutSeconds: seconds });
    if (message !== null) {
      outcome = "decided";
      break;
    }
    const run = await withReconnect(() => context.store.getRun(runId));
    if (!run || run.attempt !== attempt || run.status !== "waiting") return "moved_on";
  }
  await continueAfterGates(context, runId, attempt);
  return outcome;
}

/** The registered wait (registered when this module is imported). */
export const registeredApprovalWaitWorkflow = DBOS.registerWorkflow(approvalWaitWorkflow, {
  name: workflowNames.approvalWait,
});
