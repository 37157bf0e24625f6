import { join } from "node:path";
import { DBOS } from "@dbos-inc/dbos-sdk";
import {
  builtinStepKinds,
  createEventBus,
  replayJournal,
  runPipeline,
  runUnit,
  SINGLE_ITEM,
  serializeError,
} from "@reelsmith/runner";
import pLimit from "p-limit";
import { createDatabaseBudget } from "../budget/database-budget.js";
import { withReconnect } from "../database/pool.js";
import { watchCancel } from "../store/cancel-watch.js";
import { createEventSink } from "../store/event-sink.js";
import { cacheDirOf, pipelineDirOf, runScopes } from "../store/run-paths.js";
import { serviceClient, workerContext } from "../worker/worker-context.js";
import { type UnitJob, type UnitOutcome, workflowNames } from "./unit-job.js";

const kinds = new Map(builtinStepKinds.map((kind) => [kind.kind, kind]));

/**
 * One unit of work on whichever worker the queue gave it to. The step kind's logic is the
 * runner's own `runUnit`; what this adds is where its state lives: the journal (facts such
 * as a video's job id, written before polling) in the database, the budget as reservations
 * in the database, the clip in the shared artifacts directory. If the worker dies, DBOS
 * recovers this workflow on another worker, which finds the journaled job id and re-attaches
 * to the job instead of paying for a second one.
 */
async function unitWorkflow(job: UnitJob): Promise<UnitOutcome> {
  const context = workerContext();
  const { store } = context;
  const run = await withReconnect(() => store.getRun(job.runId), { logger: context.logger });
  if (!run) throw new Error(`run ${job.runId} is not in the database`);
  const kind = kinds.get(job.kind);
  if (!kind) throw new Error(`no step kind "${job.kind}" in this worker`);
  // Only this unit's records: what an earlier attempt of it journaled (a job id to re-attach).
  const records = await withReconnect(() =>
    store.journalRecords(job.runId, {
      step: job.stepId,
      ...(job.index === undefined ? {} : { index: job.index }),
    }),
  );
  const previous = replayJournal(records)
    .steps.get(job.stepId)
    ?.items.get(job.index ?? SINGLE_ITEM);
  // A worker that stops leaves its units unfinished (PENDING) for another worker to recover,
  // so only a cancel of the run aborts a unit.
  const cancel = watchCancel(store, job.runId);
  const signal = cancel.signal;
  const sink = createEventSink(store, job.runId, context.logger);
  const bus = createEventBus({ onEvent: sink.push });
  const budget = createDatabaseBudget({
    pool: context.pool,
    runId: job.runId,
    scopes: runScopes(run),
    maxCredits: run.options.maxCredits,
    ...(run.options.pixelSecondsPerCredit
      ? { pixelSecondsPerCredit: run.options.pixelSecondsPerCredit }
      : {}),
    onReached: (credits, maxCredits) => bus.emit({ type: "budget.reached", credits, maxCredits }),
  });
  const client = serviceClient(context, run.baseURL);
  const pipelineDir = pipelineDirOf(run);
  try {
    const result = await runUnit(
      {
        stepId: job.stepId,
        kind,
        spec: job.spec,
        ...(job.index === undefined ? {} : { index: job.index }),
        ...(job.retry ? { retry: job.retry } : {}),
        ...(job.timeoutMs ? { timeoutMs: job.timeoutMs } : {}),
        cache: job.cache,
        ...(previous ? { previous } : {}),
      },
      {
        runDir: run.runDir,
        signal,
        client,
        bus,
        journal: store.journal(job.runId),
        // The queue admitted this unit: its slot is the video limit.
        videoLimit: pLimit(Number.POSITIVE_INFINITY),
        defaults: job.defaults,
        cacheDir: cacheDirOf(run),
        extras: {
          runId: job.runId,
          pipelineDir,
          budget,
          resubmitLostJobs: run.options.resubmitLostJobs === true,
          runSubPipeline: async (file, inputs, sub) => {
            const subResult = await runPipeline(join(pipelineDir, file), {
              inputs,
              runDir: join(run.runDir, "subruns", `${sub.name}-${job.stepId}-${job.index ?? 0}`),
              client,
              signal: sub.signal,
              cacheDir: cacheDirOf(run),
            });
            if (subResult.status !== "succeeded") {
              throw new Error(
                `sub-pipeline ${file} ${subResult.status}: ${subResult.error?.message ?? "no error"}`,
              );
            }
            return subResult.outputs;
          },
        },
      },
    );
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error: serializeError(error), cancelled: signal.aborted };
  } finally {
    cancel.stop();
    // A submission that never completed holds no credits any more.
    const prefix = `reelsmith-${job.runId}-${job.stepId}-${job.index ?? 0}-`;
    await budget.releaseOpen(prefix).catch(() => undefined);
    await sink.flush();
  }
}

/** The registered unit workflow (registered when this module is imported). */
export const registeredUnitWorkflow = DBOS.registerWorkflow(unitWorkflow, {
  name: workflowNames.unit,
});
