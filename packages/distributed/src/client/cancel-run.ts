import { approvalWaitId, slotId } from "../workflows/unit-job.js";
import type { Coordinator } from "./connect.js";

/**
 * Cancels a run: marks it so that its workflow submits nothing more and its running units
 * stop waiting (each checks the mark), and cancels its units still waiting on a queue. The
 * service interface has no way to cancel a video job, so jobs already accepted run to their
 * end at the service (and are charged there); their ids stay in the run's journal. A run that
 * waits at a gate ends `cancelled` at once, and its wait for a decision is cancelled.
 * @example await cancelRun(coordinator, runId);
 */
export async function cancelRun(
  coordinator: Coordinator,
  runId: string,
): Promise<{ cancelledUnits: number; alreadyEnded: boolean }> {
  const run = await coordinator.store.getRun(runId);
  if (!run) throw new Error(`no run ${runId} in the database (see \`reelsmith status\`)`);
  if (run.status === "waiting" && (await coordinator.store.cancelWaiting(runId, run.attempt))) {
    // Stopped at its gates: nothing runs, only its wait for a decision is there to stop.
    await coordinator.dbos
      .cancelWorkflow(approvalWaitId(runId, run.attempt))
      .catch(() => undefined);
    return { cancelledUnits: 0, alreadyEnded: false };
  }
  // The mark is set only on a run that has not ended, under the lock its end takes: once it
  // is set, the run ends `cancelled` whatever else its units are doing.
  if (!(await coordinator.store.requestCancel(runId))) {
    return { cancelledUnits: 0, alreadyEnded: true };
  }
  const queued = async (prefix: string) =>
    (
      await coordinator.dbos.listWorkflows({
        workflow_id_prefix: prefix,
        status: "ENQUEUED",
        loadInput: false,
        loadOutput: false,
      })
    ).map((status) => status.workflowID);
  const units = await queued(`${runId}:${run.attempt}:`);
  // Units that wait for a slot give theirs up when they see the mark; these are the
  // slots still queued for units that are gone.
  const slots = await queued(slotId(`${runId}:${run.attempt}`));
  const ids = [...units, ...slots];
  if (ids.length > 0) await coordinator.dbos.cancelWorkflows(ids);
  return { cancelledUnits: units.length, alreadyEnded: false };
}
