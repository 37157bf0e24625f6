import type { ErrorCategory } from "@reelsmith/core/errors";
import type { SerializedError } from "@reelsmith/runner";
import { BudgetExceededError } from "@reelsmith/runner/errors";
import {
  createRunServices,
  type EventBus,
  type ExecuteResult,
  type RunHost,
} from "@reelsmith/runner/internal";
import { budgetRefusal, createDatabaseBudget, setBudget } from "../budget/database-budget.js";
import { createDatabaseCacheIndex } from "../cache/database-cache-index.js";
import { cacheServiceOf } from "../cache/database-run-cache.js";
import { withReconnect } from "../database/pool.js";
import { budgetScopes, queueNames } from "../service.js";
import type { watchCancel } from "../store/cancel-watch.js";
import { cacheDirOf, pipelineDirOf, runScopes, storedRunServices } from "../store/run-paths.js";
import type { RunRow } from "../store/run-store.js";
import type { ClaimFence } from "../store/unit-claims.js";
import { serviceClient, type WorkerContext } from "../worker/worker-context.js";
import { createQueuedUnits } from "./queued-units.js";
import { applicationVersion, approvalWaitId, workflowNames } from "./unit-job.js";

/** What the DBOS host is set up from: the run's row, its attempt, its bus and cancel watch. */
export interface QueuedRun {
  context: WorkerContext;
  run: RunRow;
  attempt: number;
  bus: EventBus;
  cancel: ReturnType<typeof watchCancel>;
  /** The run workflow's claim: its journal records and the run's end land only while current. */
  guard?: ClaimFence;
  /** The pipeline's `defaults`, by kind. */
  defaults: Record<string, Record<string, unknown>>;
}

/**
 * The DBOS host: the journal and the run record in PostgreSQL (the runs table; `endRun`
 * journals `run.end` and stores the outcome in one transaction, under the row lock a cancel
 * takes), the budget as reservations in the database, units handed to the queues (which hold
 * the limits), a wait at the gates that is a workflow of its own.
 * @example await runLifecycle(play, queuedHost({ context, run, attempt, bus, cancel, defaults }));
 */
export function queuedHost(given: QueuedRun): RunHost {
  const { context, run, attempt, bus, cancel } = given;
  const { store } = context;
  const runId = run.runId;
  const journal = store.journal(runId, {}, given.guard);
  const cacheIndex = createDatabaseCacheIndex(context.pool, { logger: context.logger });
  return {
    bus,
    runDir: run.runDir,
    journal: {
      // Units journal on whichever worker runs them: the figures are read back from the store.
      whole: false,
      read: () => withReconnect(() => store.journalRecords(runId)),
      append: (record) => journal.append(record),
    },
    async saveRunRecord(record) {
      if (record.phase === "start") {
        await withReconnect(() => store.setStatus(runId, "running"));
        if (record.record) await journal.append(record.record);
        return undefined;
      }
      // A cancel recorded before this point ends the run cancelled, whatever its units saw.
      const ended = {
        status: record.status,
        outputs: record.outputs,
        totals: record.totals,
        ...(record.error ? { error: errorSummary(record.error) } : {}),
      };
      return (await withReconnect(() =>
        store.endRun(runId, ended, given.guard),
      )) as typeof record.status;
    },
    async createBudget({ maxCredits, onReached }) {
      await setBudget(context.pool, budgetScopes.run(runId), maxCredits ?? null);
      return createDatabaseBudget({
        pool: context.pool,
        runId,
        service: run.service,
        scopes: runScopes(run),
        maxCredits,
        signal: cancel.signal,
        onReached,
      });
    },
    units: createQueuedUnits({
      context,
      run,
      attempt,
      defaults: given.defaults,
      // A unit that ended cancelled means the run was cancelled: its signal must say so
      // before the unit's error reaches the step, or the step would end failed.
      onCancelled: () => cancel.check(),
    }),
    // Units wait on their queues, not here: the queues hold the limits.
    limits: {
      concurrency: run.options.concurrency ?? 10_000,
      slots: {},
    },
    signal: cancel.signal,
    client: serviceClient(context, run.baseURL, run.options),
    cache: {
      enabled: run.options.cache !== false,
      dir: cacheDirOf(run),
      index: cacheIndex,
      // The units' key (not the account's): an estimate finds what the units stored.
      service: cacheServiceOf(run.baseURL),
    },
    pipelineDir: pipelineDirOf(run),
    // Its units run on the workers, each with services of its own (`unitWorkflow`).
    extras: (budget) => createRunServices({ ...storedRunServices(run, context.kinds), budget }),
    // A budget that stopped any submission (here, anywhere: another worker, a sub-pipeline)
    // is the run's headline error, as in a local run.
    async settledError() {
      const refusal = await withReconnect(() => budgetRefusal(context.pool, runId));
      return refusal ? new BudgetExceededError(refusal.spent, refusal.maxCredits) : undefined;
    },
    // The wait for the gates' decisions is a workflow of its own, on a queue without limits,
    // so that the run holds no worker's place while nobody decides. It exists before the run
    // says it waits: a decision sent then always finds it.
    onWaiting: (result: ExecuteResult) =>
      withReconnect(() =>
        context.dbos.enqueue(
          {
            queueName: queueNames.approvals,
            workflowName: workflowNames.approvalWait,
            workflowID: approvalWaitId(runId, attempt),
            appVersion: applicationVersion,
          },
          runId,
          attempt,
          earliestDeadline(result.waiting.map((gate) => result.steps[gate]?.waiting?.details)),
        ),
      ).then(() => undefined),
  };
}

/** What the runs table keeps of an error. */
export interface ErrorSummary {
  name: string;
  message: string;
  code?: string;
  category?: ErrorCategory;
}

/**
 * What the runs table keeps of an error: its name, message, code and category.
 * @example errorSummary(serializeError(error)) // { name, message, code, category }
 */
export function errorSummary(error: SerializedError): ErrorSummary {
  return {
    name: error.name,
    message: error.message,
    ...(typeof error.code === "string" ? { code: error.code } : {}),
    ...(error.category ? { category: error.category } : {}),
  };
}

/** The earliest deadline of the gates a run waits at (null: they wait without limit). */
function earliestDeadline(
  details: readonly (Record<string, unknown> | undefined)[],
): string | null {
  const deadlines = details
    .map((entry) => (typeof entry?.deadline === "string" ? entry.deadline : undefined))
    .filter((deadline): deadline is string => deadline !== undefined)
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return deadlines[0] ?? null;
}
