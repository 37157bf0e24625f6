import { DBOS } from "@dbos-inc/dbos-sdk";
import type { ErrorCategory } from "@reelsmith/core/errors";
import {
  BudgetExceededError,
  estimateRun,
  type LoadedPipeline,
  loadPipeline,
  type RunStatus,
  type SerializedError,
  serializeError,
} from "@reelsmith/runner";
import {
  behindGates,
  budgetAdmission,
  buildGraph,
  createEventBus,
  emptyTotals,
  executePipeline,
  ledgerOf,
  replayJournal,
  runStartSteps,
  settleRun,
  uncachedSteps,
} from "@reelsmith/runner/internal";
import pLimit from "p-limit";
import { budgetRefusal, createDatabaseBudget, setBudget } from "../budget/database-budget.js";
import { assertEstimateWithin } from "../budget/run-estimate.js";
import { createDatabaseCacheIndex } from "../cache/database-cache-index.js";
import { withReconnect } from "../database/pool.js";
import { budgetScopes, queueNames } from "../service.js";
import { watchCancel } from "../store/cancel-watch.js";
import { createEventSink } from "../store/event-sink.js";
import { createRunMirror } from "../store/run-directory-mirror.js";
import { cacheDirOf, pipelineDirOf, runScopes } from "../store/run-paths.js";
import { serviceClient, type WorkerContext, workerContext } from "../worker/worker-context.js";
import { createQueuedUnits } from "./queued-units.js";
import { applicationVersion, approvalWaitId, workflowNames } from "./unit-job.js";

/** What a run's workflow returns (also kept in the runs table). */
export interface RunOutcome {
  status: RunStatus;
  outputs: Record<string, unknown>;
  totals: Record<string, number>;
  error?: { name: string; message: string; code?: string; category?: ErrorCategory };
}

/** What the runs table keeps of an error: its name, message, code and category. */
function errorSummary(error: SerializedError): NonNullable<RunOutcome["error"]> {
  return {
    name: error.name,
    message: error.message,
    ...(typeof error.code === "string" ? { code: error.code } : {}),
    ...(error.category ? { category: error.category } : {}),
  };
}

/**
 * A run as a durable workflow. It plays the pipeline's DAG with the runner's own
 * `executePipeline`, and hands each unit to a queue (`createQueuedUnits`) under an id made of
 * the run, attempt, step and item. If the worker running it dies, DBOS recovers it on another
 * worker: it replays the run's journal from the database (finished steps and items are
 * reused), and re-enqueueing a unit under its id returns the unit already queued or running.
 */
async function runWorkflow(runId: string, attempt: number): Promise<RunOutcome> {
  const context = workerContext();
  const { store } = context;
  const run = await withReconnect(() => store.getRun(runId), { logger: context.logger });
  if (!run) throw new Error(`run ${runId} is not in the database`);
  const started = Date.now();
  const sink = createEventSink(store, runId, context.logger);
  // The run directory mirrors the database at each step's end and at the run's end.
  const mirror = createRunMirror(store, runId, context.logger);
  const bus = createEventBus({
    onEvent: (event) => {
      sink.push(event);
      if (stepEnds.has(event.type)) void sink.flush().then(mirror.request);
    },
  });
  const cancel = watchCancel(store, runId);
  try {
    await withReconnect(() => store.setStatus(runId, "running"));
    const loaded = await loadPipeline(
      { source: run.pipelineSource, path: run.pipelinePath },
      { stepKinds: [...context.kinds.values()] },
    );
    const pipeline = loaded as LoadedPipeline;
    const spec = pipeline.spec as unknown as Parameters<typeof executePipeline>[0]["spec"];
    const records = await withReconnect(() => store.journalRecords(runId));
    const previous = records.length > 0 ? replayJournal(records) : undefined;
    const journal = store.journal(runId);
    if (!previous?.start) {
      await journal.append({
        type: "run.start",
        runId,
        name: run.name,
        pipelineHash: run.pipelineHash,
        pipelinePath: run.pipelinePath,
        inputs: run.inputs,
      });
    }
    bus.emit({
      type: "run.start",
      runId,
      runDir: run.runDir,
      name: run.name,
      resumed: previous !== undefined,
      steps: runStartSteps(spec, context.kinds),
    });
    const maxCredits = run.options.maxCredits ?? spec.max_credits;
    // What the run is expected to cost (a resumed one: what it has left), for its followers;
    // refused, as a local run is, when its certain part is over its maximum (a resumed run
    // whose remaining clips no longer fit, since submitRun held the first attempt to it).
    const estimate = await estimateRun(pipeline, {
      inputs: run.inputs,
      videoModels: run.options.videoModels,
      stepKinds: [...context.kinds.values()],
      previous,
    });
    bus.emit({
      type: "run.estimate",
      estimate,
      ...(maxCredits === undefined ? {} : { maxCredits }),
    });
    assertEstimateWithin(estimate, { maxCredits });
    await setBudget(context.pool, budgetScopes.run(runId), maxCredits ?? null);
    const budget = createDatabaseBudget({
      pool: context.pool,
      runId,
      service: run.service,
      scopes: runScopes(run),
      maxCredits,
      videoModels: run.options.videoModels,
      signal: cancel.signal,
      onReached: (credits, max) => bus.emit({ type: "budget.reached", credits, maxCredits: max }),
    });
    const client = serviceClient(context, run.baseURL, run.options);
    const result = await executePipeline({
      spec,
      graph: buildGraph(pipeline as unknown as Parameters<typeof buildGraph>[0]),
      kinds: context.kinds,
      inputs: run.inputs,
      run: { id: runId, dir: run.runDir, name: run.name },
      client,
      bus,
      journal,
      ...(previous ? { previous } : {}),
      signal: cancel.signal,
      // Units wait on their queues, not here: the queues hold the limits.
      concurrency: run.options.concurrency ?? 10_000,
      videoLimit: pLimit(Number.POSITIVE_INFINITY),
      budget,
      cache: run.options.cache !== false,
      cacheDir: cacheDirOf(run),
      // Once a fan-out's length is known, a budget that cannot pay for all of it stops the
      // run before its first unit (unless a part of it is allowed), as a local run does.
      admit: budgetAdmission({
        estimate,
        budget,
        enforce: run.options.allowPartial !== true,
        uncached: uncachedSteps(spec),
        ...(run.options.cache === false
          ? {}
          : {
              cache: {
                location: {
                  dir: cacheDirOf(run),
                  index: createDatabaseCacheIndex(context.pool, { logger: context.logger }),
                },
                service: run.service,
                pipelineDir: pipelineDirOf(run),
              },
            }),
        onEstimate: (refined) =>
          bus.emit({
            type: "run.estimate",
            estimate: refined,
            ...(maxCredits === undefined ? {} : { maxCredits }),
          }),
      }),
      units: createQueuedUnits({
        context,
        run,
        attempt,
        defaults: spec.defaults ?? {},
        // A unit that ended cancelled means the run was cancelled: its signal must say so
        // before the unit's error reaches the step, or the step would end failed.
        onCancelled: () => cancel.check(),
      }),
      extras: {
        runId,
        pipelineDir: pipelineDirOf(run),
        budget,
        ...(run.options.videoModels ? { videoModels: run.options.videoModels } : {}),
        ...(run.options.autoApprove ? { autoApprove: true } : {}),
        runSubPipeline: () => {
          throw new Error("sub-pipelines run inside their unit's worker");
        },
      },
    });
    // As in a local run, a budget that stopped any submission (here, anywhere: another
    // worker, a sub-pipeline) is the run's headline error.
    const refusal = await withReconnect(() => budgetRefusal(context.pool, runId));
    const ending = settleRun(spec, result, {
      ...(refusal ? { error: new BudgetExceededError(refusal.spent, refusal.maxCredits) } : {}),
    });
    const { outputs } = ending;
    let { error } = ending;
    let status = ending.status as RunOutcome["status"];
    // The run's figures as its ledger says: every unit's entries, on whichever worker, in
    // every attempt of the run.
    const runTotals = {
      ...ledgerOf(await withReconnect(() => store.journalRecords(runId))).total,
      cachedSteps: result.totals.cachedSteps,
      estimatedCredits: estimate.credits,
    };
    const totals = runTotals as unknown as Record<string, number>;
    if (status === "waiting") {
      // Stopped at its gates: the wait for their decisions is a workflow of its own, on a
      // queue without limits, so that the run holds no worker's place while nobody decides.
      // It exists before the run says it waits: a decision sent then always finds it.
      await withReconnect(() =>
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
      );
      bus.emit({
        type: "run.waiting",
        ...behindGates(pipeline, result, {
          inputs: run.inputs,
          ...(run.options.videoModels ? { videoModels: run.options.videoModels } : {}),
          stepKinds: [...context.kinds.values()],
        }),
      });
    }
    // A cancel recorded before this point ends the run cancelled, whatever its units saw.
    const ended = { status, outputs, totals, ...(error ? { error: errorSummary(error) } : {}) };
    status = (await withReconnect(() => store.endRun(runId, ended))) as RunOutcome["status"];
    if (status === "cancelled") error = undefined;
    const outcome: RunOutcome = {
      status,
      outputs,
      totals,
      ...(error ? { error: errorSummary(error) } : {}),
    };
    bus.emit({
      type: "run.end",
      status,
      totals: runTotals,
      outputs,
      ...(error ? { error } : {}),
      durationMs: Date.now() - started,
    });
    return outcome;
  } catch (caught) {
    // The run could not be played (its pipeline no longer loads): it ends failed, not stuck.
    const error = serializeError(caught);
    const outcome: RunOutcome = {
      status: "failed",
      outputs: {},
      totals: {},
      error: errorSummary(error),
    };
    outcome.status = (await withReconnect(() => store.endRun(runId, outcome)).catch(
      () => outcome.status,
    )) as RunOutcome["status"];
    bus.emit({
      type: "run.end",
      status: outcome.status,
      totals: emptyTotals(),
      outputs: {},
      error,
      durationMs: Date.now() - started,
    });
    return outcome;
  } finally {
    cancel.stop();
    await sink.flush();
    await mirror.settle();
    await writeRunReport(run.runDir, context);
  }
}

/** The events after which the run directory's mirror is brought up to date. */
const stepEnds = new Set(["step.end", "step.fail", "step.skip", "step.wait"]);

/**
 * Writes the run's report.html from its mirrored directory, as a local run does at its end. A
 * report that cannot be written changes nothing in the run: it is said to the logger
 * (`reelsmith report DIR` writes it again).
 */
async function writeRunReport(runDir: string, context: WorkerContext): Promise<void> {
  try {
    // Loaded on use: the report pulls in the media tools.
    const { writeReport } = await import("@reelsmith/report");
    await writeReport(runDir, { secrets: context.apiKey ? [context.apiKey] : [] });
  } catch (error) {
    context.logger?.warn?.("report not written", { runDir, error: (error as Error).message });
  }
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

/** The registered run workflow (registered when this module is imported). */
export const registeredRunWorkflow = DBOS.registerWorkflow(runWorkflow, {
  name: workflowNames.run,
});
