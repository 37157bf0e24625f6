import type { Coordinator } from "./connect.js";

/**
 * Cancels a run: marks it so that its workflow submits nothing more and its running units
 * stop waiting (each checks the mark), and cancels its units still waiting on a queue. The
 * service interface has no way to cancel a video job, so jobs already accepted run to their
 * end at the service (and are charged there); their ids stay in the run's journal.
 * @example await cancelRun(coordinator, runId);
 */
export async function cancelRun(
  coordinator: Coordinator,
  runId: string,
): Promise<{ cancelledUnits: number }> {
  const run = await coordinator.store.getRun(runId);
  if (!run) throw new Error(`no run ${runId} in the database (see \`reelsmith status\`)`);
  if (run.endedAt) return { cancelledUnits: 0 };
  await coordinator.store.requestCancel(runId);
  const queued = await coordinator.dbos.listWorkflows({
    workflow_id_prefix: `${runId}:${run.attempt}:`,
    status: "ENQUEUED",
    loadInput: false,
    loadOutput: false,
  });
  const ids = queued.map((status) => status.workflowID);
  if (ids.length > 0) await coordinator.dbos.cancelWorkflows(ids);
  return { cancelledUnits: ids.length };
}
