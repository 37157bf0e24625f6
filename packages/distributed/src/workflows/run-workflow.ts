import { DBOS } from "@dbos-inc/dbos-sdk";
import { loadPipeline, type RunOptions, type RunStatus, type RunTotals } from "@reelsmith/runner";
import {
  createEventBus,
  emptyTotals,
  journaledOptions,
  runLifecycle,
  runToPlay,
  serializeError,
} from "@reelsmith/runner/internal";
import { withReconnect } from "../database/pool.js";
import { watchCancel } from "../store/cancel-watch.js";
import { createEventSink } from "../store/event-sink.js";
import { createRunMirror } from "../store/run-directory-mirror.js";
import type { ClaimGuard } from "../worker/claim-guard.js";
import { type WorkerContext, workerContext } from "../worker/worker-context.js";
import { claimedWorkflow } from "./lost-claims.js";
import { type ErrorSummary, errorSummary, queuedHost } from "./queued-host.js";
import { runWorkflowId, workflowNames } from "./unit-job.js";

/** What a run's workflow returns (also kept in the runs table). */
export interface RunOutcome {
  status: RunStatus;
  outputs: Record<string, unknown>;
  totals: RunTotals;
  error?: ErrorSummary;
}

/**
 * A run as a durable workflow: the runner's own lifecycle (`runLifecycle`) on the DBOS host
 * (`queuedHost`), which hands each unit to a queue under an id made of the run, attempt, step
 * and item. If the worker running it dies, DBOS recovers it on another worker: it replays the
 * run's journal from the database (finished steps and items are reused), and re-enqueueing a
 * unit under its id returns the unit already queued or running.
 */
async function runWorkflow(runId: string, attempt: number): Promise<RunOutcome> {
  const context = workerContext();
  // Under a claim, as a unit: a run workflow handed over while this worker was frozen
  // journals nothing more here, and does not end the run.
  return claimedWorkflow(
    context,
    DBOS.workflowID ?? runWorkflowId(runId, attempt),
    (guard) => playRun(runId, attempt, guard),
    (error): RunOutcome => ({
      status: "failed",
      outputs: {},
      totals: emptyTotals(),
      ...(error ? { error: errorSummary(serializeError(error)) } : {}),
    }),
  );
}

async function playRun(runId: string, attempt: number, guard: ClaimGuard): Promise<RunOutcome> {
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
      // A run this worker lost tells nothing more (its new holder does).
      if (guard.lost !== undefined) return;
      sink.push(event);
      if (stepEnds.has(event.type)) void sink.flush().then(mirror.request);
    },
  });
  const cancel = watchCancel(store, runId);
  try {
    const pipeline = await loadPipeline(
      { source: run.pipelineSource, path: run.pipelinePath },
      { stepKinds: [...context.kinds.values()] },
    );
    const host = queuedHost({
      context,
      run,
      attempt,
      bus,
      cancel,
      guard,
      defaults: (pipeline.spec.defaults ?? {}) as Record<string, Record<string, unknown>>,
    });
    const catalogs = run.options.catalogs as RunOptions["catalogs"];
    const result = await runLifecycle(
      runToPlay({
        pipeline,
        inputs: run.inputs,
        runId,
        name: run.name,
        startedAt: run.createdAt.toISOString(),
        journaled: journaledOptions(run.options as RunOptions),
        // The options stored with the run are the ones it started with: every attempt (a
        // recovery, a gate's decision) plays with the same budget.
        maxCredits: run.options.maxCredits,
        // A resumed run's estimate is the whole run's (what it spent and what it has left):
        // refused, as a local run's is, when its certain part is over its maximum (submitRun
        // held the first attempt to it).
        estimate: true,
        allowPartial: run.options.allowPartial,
        kinds: context.kinds,
        catalogs,
        stepKinds: [...context.kinds.values()],
      }),
      host,
    );
    return {
      status: result.status,
      outputs: result.outputs,
      totals: result.totals,
      ...(result.error ? { error: errorSummary(result.error) } : {}),
    };
  } catch (caught) {
    if (guard.lost !== undefined) throw caught;
    // The run could not be played (its pipeline no longer loads): it ends failed, not stuck.
    const error = serializeError(caught);
    const outcome: RunOutcome = {
      status: "failed",
      outputs: {},
      totals: emptyTotals(),
      error: errorSummary(error),
    };
    outcome.status = (await withReconnect(() => store.endRun(runId, outcome, guard)).catch(
      () => outcome.status,
    )) as RunOutcome["status"];
    if (guard.lost !== undefined) throw caught;
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
    // The run directory's report is its holder's to write.
    if (guard.lost === undefined) await writeRunReport(run.runDir, context);
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
  // Loaded on use: the report pulls in the media tools.
  const report = await import("@reelsmith/report").then(
    ({ writeRunEndReport }) =>
      writeRunEndReport(runDir, { secrets: context.apiKey ? [context.apiKey] : [] }),
    (error: unknown) => ({ error: (error as Error).message }),
  );
  if (report.error !== undefined)
    context.logger?.warn?.("report not written", { runDir, error: report.error });
}

/** The registered run workflow (registered when this module is imported). */
export const registeredRunWorkflow = DBOS.registerWorkflow(runWorkflow, {
  name: workflowNames.run,
});
