import type { UnitExecutor, UnitResult } from "@reelsmith/runner";
import { queueNames } from "../service.js";
import type { RunRow } from "../store/run-store.js";
import type { WorkerContext } from "../worker/worker-context.js";
import {
  applicationVersion,
  errorFromData,
  type UnitJob,
  type UnitOutcome,
  unitWorkflowId,
  workflowNames,
} from "./unit-job.js";

/** The queue a unit of a kind waits on: video jobs and chat requests per service account. */
export function queueOfKind(kind: string, service: string): string {
  if (kind === "video") return queueNames.video(service);
  if (kind === "chat") return queueNames.chat(service);
  return queueNames.local;
}

const terminal = new Set(["SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"]);

/**
 * The DBOS executor's units: each unit is enqueued as a workflow on its kind's queue under a
 * deterministic id (re-enqueueing it after a recovery returns the same workflow), and one
 * watcher per run checks its waiting units' states every `pollIntervalMs` in one query.
 * @example executePipeline({ ...options, units: createQueuedUnits({ context, run, attempt, defaults }) });
 */
export function createQueuedUnits(options: {
  context: WorkerContext;
  run: RunRow;
  attempt: number;
  defaults: Record<string, Record<string, unknown>>;
}): UnitExecutor {
  const { context, run, attempt } = options;
  const waiting = new Map<
    string,
    { resolve: (outcome: UnitOutcome) => void; reject: (e: unknown) => void }
  >();
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    timer = undefined;
    try {
      const ids = [...waiting.keys()];
      const statuses = await context.dbos.listWorkflows({
        workflowIDs: ids,
        loadInput: false,
        loadOutput: false,
      });
      for (const status of statuses) {
        if (!terminal.has(status.status)) continue;
        const waiter = waiting.get(status.workflowID);
        if (!waiter) continue;
        waiting.delete(status.workflowID);
        if (status.status === "SUCCESS") {
          context.dbos
            .retrieveWorkflow<UnitOutcome>(status.workflowID)
            .getResult()
            .then(waiter.resolve, waiter.reject);
        } else {
          waiter.resolve({
            ok: false,
            cancelled: status.status === "CANCELLED",
            error: {
              name: status.status === "CANCELLED" ? "AbortError" : "UnitWorkflowError",
              message: `unit ${status.workflowID} ended ${status.status}${status.error ? `: ${String((status.error as Error).message ?? status.error)}` : ""}`,
            },
          });
        }
      }
    } catch (error) {
      context.logger?.warn?.("unit states not read, retrying", { error: (error as Error).message });
    }
    schedule();
  };
  const schedule = () => {
    if (timer || waiting.size === 0) return;
    timer = setTimeout(() => void check(), context.pollIntervalMs);
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
          queueName: queueOfKind(job.kind, run.service),
          workflowName: workflowNames.unit,
          workflowID,
          appVersion: applicationVersion,
        },
        job,
      );
      const outcome = await new Promise<UnitOutcome>((resolve, reject) => {
        waiting.set(workflowID, { resolve, reject });
        schedule();
      });
      if (outcome.ok) return outcome.result;
      throw errorFromData(outcome.error);
    },
  };
}
