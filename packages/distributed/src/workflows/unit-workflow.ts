import { DBOS } from "@dbos-inc/dbos-sdk";
import type { ReelsmithClient } from "@reelsmith/core";

import {
  createEventBus,
  createRunServices,
  queueSlot,
  replayJournal,
  runBudget,
  runUnit,
  SINGLE_ITEM,
  serializeError,
} from "@reelsmith/runner/internal";
import { createDatabaseBudget } from "../budget/database-budget.js";
import type { PriceKind } from "../budget/video-price.js";
import { createDatabaseCacheIndex } from "../cache/database-cache-index.js";
import { cacheServiceOf } from "../cache/database-run-cache.js";
import { withReconnect } from "../database/pool.js";
import { StaleClaimError } from "../errors/stale-claim-error.js";
import { watchCancel } from "../store/cancel-watch.js";
import { createEventSink } from "../store/event-sink.js";
import { cacheDirOf, runScopes, storedRunServices } from "../store/run-paths.js";
import { storedPipelines } from "../store/written-pipelines.js";
import type { ClaimGuard } from "../worker/claim-guard.js";
import { serviceClient, workerContext } from "../worker/worker-context.js";
import { accountSlots } from "./account-slots.js";
import { claimedWorkflow } from "./lost-claims.js";
import { type UnitJob, type UnitOutcome, unitWorkflowId, workflowNames } from "./unit-job.js";
import { workerSubRuns } from "./worker-sub-runs.js";

/** A kind of job as a person reads it: "veo-3 1280x720 8 s". */
function describeKind(kind: PriceKind): string {
  return [kind.model, kind.size, kind.seconds ? `${kind.seconds} s` : ""].filter(Boolean).join(" ");
}

/** The provider account serving a unit's model, when the run's client routes it to one. */
function accountOfSpec(client: ReelsmithClient, spec: unknown): string | undefined {
  const model = (spec as { model?: unknown } | null)?.model;
  return typeof model === "string" ? client.accountOf?.(model) : undefined;
}

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
  const unitId = DBOS.workflowID ?? unitWorkflowId(job);
  // Its claim first: a new epoch makes any earlier execution's writes stale.
  return claimedWorkflow(
    context,
    unitId,
    (guard) => runClaimedUnit(job, guard),
    (error): UnitOutcome => ({
      ok: false,
      error: serializeError(error ?? new StaleClaimError(unitId, 0, "run the unit")),
      cancelled: false,
    }),
  );
}

async function runClaimedUnit(job: UnitJob, guard: ClaimGuard): Promise<UnitOutcome> {
  const context = workerContext();
  const { store } = context;
  const run = await withReconnect(() => store.getRun(job.runId), { logger: context.logger });
  if (!run) throw new Error(`run ${job.runId} is not in the database`);
  const kind = context.kinds.get(job.kind);
  if (!kind) throw new Error(`no step kind "${job.kind}" in this worker`);
  const previous = await previousAttempt(store, job);
  // A worker that stops leaves its units unfinished (PENDING) for another worker to recover,
  // so only a cancel of the run aborts a unit.
  const cancel = watchCancel(store, job.runId);
  const signal = cancel.signal;
  const sink = createEventSink(store, job.runId, context.logger);
  // A unit this worker lost tells nothing more (its new holder does).
  const bus = createEventBus({
    onEvent: (event) => (guard.lost === undefined ? sink.push(event) : undefined),
  });
  const budget = unitBudget({ context, run, job, signal, guard, bus });
  const client = serviceClient(context, run.baseURL, run.options);
  // A unit of a queue with slots (a video job) holds one of the account's from submission to
  // completion; its sub-runs' units take theirs under the same holder.
  const slots = accountSlots({
    context,
    service: run.service,
    kinds: context.kinds.values(),
    holderId: unitWorkflowId(job),
    signal,
    checkCancelled: () => cancel.check(),
    // A lost unit's slot is its new holder's: this one never gives it back.
    holds: () => guard.lost === undefined,
    ...(run.options.accounts ? { accounts: run.options.accounts } : {}),
  });
  // Cache entries are rows every worker shares; the clips stay blobs in <artifacts>/.cache.
  const cacheIndex = createDatabaseCacheIndex(context.pool, { logger: context.logger });
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
        // Each record names the worker that wrote it: the report shows who ran the unit.
        journal: store.journal(job.runId, { worker: context.executorId }, guard),
        // A model of a provider account with a job limit takes one of its slots too.
        slot: queueSlot(slots, kind, accountOfSpec(client, job.spec)),
        // A request to another model (a speech's transcription) holds that model's account's.
        slotOf: (model) => queueSlot(slots, kind, client.accountOf?.(model)),
        defaults: job.defaults,
        cacheDir: cacheDirOf(run),
        cacheIndex,
        service: cacheServiceOf(run.baseURL),
        // Who reads each step's outputs, from the stored pipeline (a kind decides from it what
        // becomes of what it makes, as in a local run); each request is checked against the
        // run's catalogs before it is sent.
        extras: createRunServices({
          ...storedRunServices(run, context.kinds),
          budget,
          fence: (action) => guard.check(action),
          subRuns: workerSubRuns({ job, run, client, cacheIndex, budget, slots }),
          // The run's other units journal on other workers: the jobs they hold are read from
          // the store before a listed job is adopted, so that no job is adopted twice.
          journalNow: async () =>
            replayJournal(await withReconnect(() => store.journalRecords(job.runId))),
        }),
      },
    );
    // A unit that lost its claim meanwhile has no outcome here (its new holder gives it).
    if (guard.lost !== undefined) guard.stale(guard.lost);
    return { ok: true, result };
  } catch (error) {
    if (guard.lost !== undefined) throw error;
    // Ended by the run's cancel (seen by its watch, its budget or its slot), or failed.
    const cancelled = signal.aborted || (await cancel.check());
    return { ok: false, error: serializeError(error), cancelled };
  } finally {
    cancel.stop();
    if (guard.lost === undefined) {
      // A submission that never completed holds no credits any more.
      const prefix = `reelsmith-${job.runId}-${job.stepId}-${job.index ?? 0}-`;
      await budget.releaseOpen(prefix).catch(() => undefined);
    }
    await sink.flush();
  }
}

/** What an earlier attempt of this unit journaled (a job id to re-attach), from its own records. */
async function previousAttempt(store: ReturnType<typeof workerContext>["store"], job: UnitJob) {
  const records = await withReconnect(() =>
    store.journalRecords(job.runId, {
      step: job.stepId,
      ...(job.index === undefined ? {} : { index: job.index }),
    }),
  );
  return replayJournal(records)
    .steps.get(job.stepId)
    ?.items.get(job.index ?? SINGLE_ITEM);
}

/** The run's budget as this unit reserves from it, fenced by the unit's claim. */
function unitBudget(unit: {
  context: ReturnType<typeof workerContext>;
  run: NonNullable<Awaited<ReturnType<ReturnType<typeof workerContext>["store"]["getRun"]>>>;
  job: UnitJob;
  signal: AbortSignal;
  guard: ClaimGuard;
  bus: ReturnType<typeof createEventBus>;
}) {
  const { context, run, job, signal, guard, bus } = unit;
  // Each job reserves the price its kind expects from the run's catalogs (or the one learnt
  // from an earlier job of its kind); a stored `pixelSecondsPerCredit` of an older version is
  // ignored. Its maximum is the run's, by the run's own rule (the stored options' else the
  // pipeline's `max_credits`): what its sub-runs stop at and their errors say.
  return createDatabaseBudget({
    pool: context.pool,
    runId: job.runId,
    service: run.service,
    scopes: runScopes(run),
    maxCredits: runBudget({
      given: run.options.maxCredits,
      pipeline: storedPipelines.of(run).max_credits,
    }),
    signal,
    fence: guard,
    onReached: (credits, maxCredits) => bus.emit({ type: "budget.reached", credits, maxCredits }),
    onWait: (kind) =>
      bus.emit({
        type: "log",
        level: "info",
        step: job.stepId,
        message: `a ${describeKind(kind)} clip waits for its price, learnt from the first such clip in flight`,
      }),
  });
}

/** The registered unit workflow (registered when this module is imported). */
export const registeredUnitWorkflow = DBOS.registerWorkflow(unitWorkflow, {
  name: workflowNames.unit,
});
