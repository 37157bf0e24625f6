import type { UnitExecutor, UnitResult } from "@reelsmith/runner/internal";
import { reviveError } from "@reelsmith/runner/internal";
import type { AnyStepKind } from "@reelsmith/runner/kinds";
import { queueNames } from "../service.js";
import type { RunRow } from "../store/run-store.js";
import type { WorkerContext } from "../worker/worker-context.js";
import {
  applicationVersion,
  type UnitJob,
  type UnitOutcome,
  unitWorkflowId,
  workflowNames,
} from "./unit-job.js";
import { terminalStatuses } from "./workflow-watch.js";

/**
 * The queue a unit waits on, as its kind says: its queue of the service account, or local work.
 * @example queueOf(kind, service) // "reelsmith-video-units-3f2a"
 */
export function queueOf(kind: Pick<AnyStepKind, "queue" | "slots">, service: string): string {
  if (kind.queue === "local") return queueNames.local;
  return queueNames.units(service, kind.queue, kind.slots !== undefined);
}

/**
 * The DBOS executor's units: each unit is enqueued as a workflow on its kind's queue under a
 * deterministic id (re-enqueueing it after a recovery returns the same workflow), and the
 * worker's workflow watch reads the states of all waiting units in one query per interval.
 * @example executePipeline({ ...options, units: createQueuedUnits({ context, run, attempt, defaults }) });
 */
export function createQueuedUnits(options: {
  context: WorkerContext;
  run: RunRow;
  attempt: number;
  defaults: Record<string, Record<string, unknown>>;
  /** Called (and awaited) when a unit ended cancelled, before its error is thrown. */
  onCancelled?: () => Promise<unknown>;
}): UnitExecutor {
  const { context, run, attempt } = options;
  const outcomeOf = async (workflowID: string): Promise<UnitOutcome> => {
    const status = await context.watch.until(workflowID, (s) => terminalStatuses.has(s.status));
    if (status.status === "SUCCESS") {
      return context.dbos.retrieveWorkflow<UnitOutcome>(workflowID).getResult();
    }
    const reason = status.error
      ? `: ${String((status.error as Error).message ?? status.error)}`
      : "";
    const cancelled = status.status === "CANCELLED";
    return {
      ok: false,
      cancelled,
      error: {
        name: cancelled ? "RunCancelledError" : "UnitWorkflowError",
        code: cancelled ? "run_cancelled" : "unit_workflow_failed",
        message: `unit ${workflowID} ended ${status.status}${reason}`,
        // A unit whose workflow itself failed (not its work) may run again.
        isRetryable: !cancelled,
      },
    };
  };
  return {
    async run(work): Promise<UnitResult> {
      const job: UnitJob = {
        runId: run.runId,
        attempt,
        stepId: work.stepId,
        ...(work.index === undefined ? {} : { index: work.index }),
        kind: work.kind.kind,
        spec: work.spec,
        ...(work.retry ? { retry: work.retry } : {}),
        ...(work.timeoutMs ? { timeoutMs: work.timeoutMs } : {}),
        cache: work.cache,
        defaults: options.defaults,
      };
      const workflowID = unitWorkflowId(job);
      await context.dbos.enqueue(
        {
          queueName: queueOf(work.kind, run.service),
          workflowName: workflowNames.unit,
          workflowID,
          appVersion: applicationVersion,
        },
        job,
      );
      const outcome = await outcomeOf(workflowID);
      if (outcome.ok) return outcome.result;
      if (outcome.cancelled) await options.onCancelled?.();
      throw reviveError(outcome.error);
    },
  };
}
