import { setMaxListeners } from "node:events";
import { dirname, join, resolve } from "node:path";
import pLimit from "p-limit";
import { BUILT_IN_SERVICE, serviceIdentity } from "./cache/service-identity.js";
import { DEFAULT_CACHE_DIR } from "./cache/step-cache.js";
import { BudgetEstimateError } from "./errors/budget-estimate-error.js";
import { PipelineChangedError } from "./errors/pipeline-changed-error.js";
import { ResumeError } from "./errors/resume-error.js";
import { RunCancelledError } from "./errors/run-cancelled-error.js";
import { SubPipelineDepthError } from "./errors/sub-pipeline-depth-error.js";
import { createEventBus, type EventBus } from "./events/event-bus.js";
import { createBudget } from "./executor/budget.js";
import { budgetAdmission, uncachedSteps } from "./executor/budget-admission.js";
import { checkModels } from "./executor/check-models.js";
import { createRunClient } from "./executor/create-run-client.js";
import { behindGates } from "./executor/estimate-behind-gates.js";
import type { ExecutableSpec } from "./executor/executable-pipeline.js";
import { executePipeline } from "./executor/execute-pipeline.js";
import { inspectRun, type RunOnDisk } from "./executor/inspect-run.js";
import {
  loadForRun,
  type PipelineForRun,
  runInputs,
  stepLocation,
} from "./executor/load-for-run.js";
import { replayJournal } from "./executor/replay-journal.js";
import { createRunDirectory, newRunId, writeJsonAtomic } from "./executor/run-directory.js";
import { runStartSteps, settleRun, subPipelineOutputs } from "./executor/run-lifecycle.js";
import type { FocusedSession, SessionRun } from "./executor/run-session.js";
import { openJournal, readJournal } from "./journal/journal.js";
import type { JournalRecord } from "./journal/journal-record.js";
import { encodeRecord } from "./journal/journal-record.js";
import type { RunState } from "./journal/journal-state.js";
import { acquireRunLock } from "./journal/run-lock.js";
import { createLedger } from "./ledger/ledger.js";
import { KnownProbes } from "./media-probes/known-probes.js";
import { problemsWithModels } from "./pipeline/check/check-with-models.js";
import type { VideoModelCatalog } from "./pipeline/core-shim.js";
import type { LoadedPipeline } from "./pipeline/load-pipeline.js";
import { MAX_SUB_PIPELINE_DEPTH } from "./pipeline/sub-pipelines.js";
import { buildGraph } from "./plan/build-graph.js";
import { estimateRun, planRun } from "./plan/estimate-run.js";
import { planPipeline } from "./plan/plan-pipeline.js";
import { invalidPipeline, planProblems } from "./plan/plan-problems.js";
import type { RunEstimate } from "./plan/plan-types.js";
import type { RunOptions, RunResult } from "./run-options.js";
import { kindOf, kindsByName } from "./steps/registry.js";
import type { AnyStepKind, HeldJob, ModelCatalogs, StepKindSpec } from "./steps/step-kind.js";
import { hasTakes, keepFinishedTakes } from "./takes/keep-take.js";

/** How many sub-pipelines deep a run is: 0 for a run its caller started on its own. */
function depthOf(options: RunOptions): number {
  return options.subRunOf?.depth ?? 0;
}

/**
 * Runs a pipeline (a file path, a loaded pipeline, or a pipeline object) to the end.
 * Never throws for a failing step: the result says `failed` with the error. Throws only
 * when the run cannot start (unreadable pipeline, resume of a changed pipeline).
 * @example
 * const result = await runPipeline("storyboard.yaml", { inputs: { scenes: 3 }, onEvent: console.log });
 * if (result.status === "succeeded") console.log(result.outputs.video);
 * @example
 * await runPipeline("storyboard.yaml", { resume: "runs/20260101-120000-storyboard" });
 */
export function runPipeline(
  pipeline: string | object | undefined,
  options: RunOptions = {},
): Promise<RunResult> {
  return runWithBus(
    pipeline,
    options,
    createEventBus(options.onEvent ? { onEvent: options.onEvent } : {}),
  );
}

/**
 * Runs a pipeline with a given event bus (streamPipeline subscribes before the start). A
 * focused session (a retake, a pick: `takes/`) resumes the run for one unit only.
 */
export async function runWithBus(
  pipelineArgument: string | object | undefined,
  given: RunOptions,
  bus: EventBus,
  session?: FocusedSession,
): Promise<RunResult> {
  let options = given;
  if (session && !options.resume) throw new TypeError("a focused session resumes a run");
  const started = Date.now();
  // Every run is validated, custom kinds with their own schemas and checks.
  const loadOptions = {
    validate: true,
    ...(options.videoModels ? { videoModels: options.videoModels } : {}),
    ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
    ...(options.stepKinds
      ? { stepKinds: options.stepKinds as readonly StepKindSpec<never>[] }
      : {}),
  };
  let previous: RunState | undefined;
  let runDir = options.resume ? resolve(options.resume) : ""; // a new run: named below
  let pipeline: PipelineForRun;
  let inputs: Record<string, unknown>;
  let runId: string;
  let onDisk: RunOnDisk | undefined;
  if (options.resume) {
    onDisk = inspectRun(runDir);
    previous = onDisk.state;
    const start = onDisk.start;
    pipeline = await loadForRun(pipelineArgument ?? onDisk.pipelinePath, loadOptions);
    if (pipeline.hash !== start.pipelineHash) {
      throw new PipelineChangedError(runDir, String(start.pipelineHash), pipeline.hash);
    }
    inputs =
      (start.inputs as Record<string, unknown>) ?? runInputs(pipeline, options.inputs ?? {}, true);
    runId = onDisk.runId;
    // A resume, a decision's continue or a retake keeps how the run was started, unless told.
    options = { ...withJournaled(options, onDisk.options), ...keptOf(options) };
  } else {
    if (pipelineArgument === undefined)
      throw new TypeError("runPipeline needs a pipeline (a file path or object)");
    pipeline = await loadForRun(pipelineArgument, loadOptions);
    inputs = runInputs(pipeline, options.inputs ?? {}, true);
    runId = newRunId();
  }
  if (onDisk && options.builtInService && !onDisk.builtInService) {
    throw new ResumeError(
      runDir,
      `it ran on ${onDisk.baseURL ?? "another service"}, not on a built-in simulator; a run keeps the service it started with`,
      "service_changed",
    );
  }
  const client = createRunClient(options, onDisk?.baseURL);
  const cacheDir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  const cacheAt = options.cacheIndex ? { dir: cacheDir, index: options.cacheIndex } : cacheDir;
  // Results of a built-in simulator are shared across runs whatever port it had.
  const service = options.builtInService ? BUILT_IN_SERVICE : serviceIdentity(client?.baseURL);
  let videoModels = options.subRunOf?.videoModels ?? options.videoModels;
  if (depthOf(options) === 0 && session?.paid !== false) {
    // One free request before anything is paid (sub-runs were checked with their parent; a
    // session that pays for nothing, a pick, asks the service nothing).
    videoModels = await checkModels(
      pipeline as unknown as LoadedPipeline,
      client,
      options.videoModels,
      options.signal,
      (message) => bus.emit({ type: "log", level: "warn", message }),
    );
    if (videoModels && videoModels !== options.videoModels) {
      // Limits learned from the service's list: each step's literal values are checked
      // against them now, before anything is paid.
      const problems = problemsWithModels(
        pipeline.spec as unknown as Record<string, unknown>,
        kindsByName(options.stepKinds),
        videoModels,
      );
      if (problems.length > 0) throw invalidPipeline(pipeline, problems);
    }
  }
  // The run's plan, made once: requests made of inputs (a model, a length, a size given with
  // --input) are known now too, so each is checked against the models' limits before anything
  // is paid; and its estimate is the run's (a sub-run spends from its parent's, checked there).
  const planned =
    depthOf(options) === 0 && !session
      ? planRun(pipeline as unknown as LoadedPipeline, {
          inputs,
          videoModels,
          catalogs: catalogsOf(options),
          stepKinds: options.stepKinds,
          previous,
        })
      : undefined;
  const refused = planned && planProblems(pipeline, planned, options.stepKinds);
  if (refused) throw refused;
  // What the run is expected to cost, before anything is paid: refused when its certain part
  // is already over its budget (a sub-run spends from its parent's, checked there).
  const estimate = session
    ? focusedEstimate(pipeline, inputs, videoModels, session, options)
    : planned
      ? await estimateRun(pipeline as unknown as LoadedPipeline, {
          inputs,
          videoModels,
          catalogs: catalogsOf(options),
          stepKinds: options.stepKinds,
          previous,
          plan: planned,
          ...(options.cache === false ? {} : { cache: { location: cacheAt, service } }),
        })
      : undefined;
  // The budget: the caller's, else the one the run started with, else the pipeline's.
  const startedWith = onDisk?.start.maxCredits;
  const budgetMax =
    options.maxCredits ??
    (typeof startedWith === "number" ? startedWith : undefined) ??
    pipeline.spec.max_credits;
  if (estimate && budgetMax !== undefined && estimate.credits > budgetMax) {
    throw new BudgetEstimateError(estimate, budgetMax);
  }
  // A budget below the price of one unit of a paid step pays for nothing of it: refused now.
  const overPriced =
    estimate && budgetMax !== undefined
      ? Object.entries(estimate.steps).find(
          ([, step]) => step.perUnit !== undefined && step.perUnit > budgetMax && step.units !== 0,
        )
      : undefined;
  // What the run is expected to cost, as precise as it gets (fan-outs' sizes once known).
  let runEstimate = estimate;
  if (estimate && budgetMax !== undefined && overPriced) {
    throw new BudgetEstimateError(estimate, budgetMax, {
      step: overPriced[0],
      perUnit: overPriced[1].perUnit ?? 0,
    });
  }
  const name = pipeline.spec.name ?? "run";
  const runJson = {
    runId,
    name,
    status: "running",
    pipeline: { path: pipeline.path, hash: pipeline.hash },
    baseURL: typeof client?.baseURL === "string" ? client.baseURL : undefined,
    ...(options.builtInService ? { builtInService: true } : {}),
    inputs,
    startedAt: onDisk?.startedAt ?? new Date(started).toISOString(),
    resumedAt: options.resume ? new Date(started).toISOString() : undefined,
  };
  if (!options.resume) {
    // Pipeline copy, inputs, run.json and run.start appear at once, before any request.
    const startRecord = {
      type: "run.start",
      runId,
      name,
      pipelineHash: pipeline.hash,
      pipelinePath: pipeline.path,
      inputs,
      ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
      options: journaledOptions(options),
      time: new Date(started).toISOString(),
    };
    runDir = createRunDirectory(
      {
        runsRoot: options.runsRoot ?? "runs",
        name,
        ...(options.runDir ? { runDir: options.runDir } : {}),
      },
      {
        "pipeline.yaml": pipeline.source,
        "run.json": `${JSON.stringify(runJson, null, 2)}\n`,
        "journal.jsonl": encodeRecord(startRecord),
      },
    );
  }
  // One process drives a run at a time; a lock left by a killed process is taken over.
  const releaseLock = acquireRunLock(runDir);
  try {
    const pipelineDir = pipeline.path === "<inline>" ? process.cwd() : dirname(pipeline.path);
    if (options.resume) writeJsonAtomic(join(runDir, "run.json"), runJson);
    bus.attachFile(join(runDir, "events.ndjson"));
    const journalFile = join(runDir, "journal.jsonl");
    // The run's ledger: every record of every session of this run, as they are journaled.
    const ledger = createLedger(options.resume ? readJournal(journalFile) : []);
    const file = openJournal(journalFile);
    const journal = {
      append(record: JournalRecord) {
        ledger.add(record);
        return file.append(record);
      },
      close: () => file.close(),
    };
    if (options.resume)
      await journal.append({ type: "run.resume", runId, options: journaledOptions(given) });
    const graph = buildGraph(pipeline as unknown as Parameters<typeof buildGraph>[0]);
    const kinds = kindsByName(options.stepKinds);
    const sessionRun = (state: RunState): SessionRun => ({
      runDir,
      runId,
      name,
      journal,
      state,
      spec: pipeline.spec,
      kinds,
      inputs,
      emit: (event) => bus.emit(event),
    });
    if (session) {
      // The session's own records (a new take, a pick) come first; the run goes on from them.
      await session.begin(sessionRun(previous ?? replayJournal([])));
      previous = replayJournal(readJournal(journalFile));
    }
    // One run-wide signal that many units listen to; the caller's signal aborts it.
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const userSignal = options.signal;
    // Every unit sees the run's own reason: cancelled, whatever the caller aborted with.
    const onUserAbort = () =>
      controller.abort(
        new RunCancelledError("the run was cancelled", { cause: userSignal?.reason }),
      );
    if (userSignal?.aborted) onUserAbort();
    else userSignal?.addEventListener("abort", onUserAbort, { once: true });
    const signal = controller.signal;
    // A gentle stop: nothing new starts or is paid for; what runs (and is paid) finishes.
    const stopController = new AbortController();
    setMaxListeners(0, stopController.signal);
    const stopSignal = options.stopSignal;
    const onStop = () =>
      stopController.abort(
        new RunCancelledError("the run was stopped", { cause: stopSignal?.reason }),
      );
    if (stopSignal?.aborted) onStop();
    else stopSignal?.addEventListener("abort", onStop, { once: true });
    signal.addEventListener("abort", () => stopController.abort(signal.reason), { once: true });
    const stop = stopController.signal;
    bus.emit({
      type: "run.start",
      runId,
      runDir,
      name,
      resumed: Boolean(options.resume),
      steps: runStartSteps(pipeline.spec, kinds),
    });
    if (estimate) {
      bus.emit({
        type: "run.estimate",
        estimate,
        ...(budgetMax === undefined ? {} : { maxCredits: budgetMax }),
      });
    }
    const budget =
      options.subRunOf?.budget ??
      createBudget(
        budgetMax,
        (credits, max) => bus.emit({ type: "budget.reached", credits, maxCredits: max }),
        { videoModels },
      );
    // What a resumed run's journal says its units hold at the service: jobs this run claims,
    // and the credits of those that completed (spent before this resume).
    const held = heldJobs(previous, pipeline.spec, kinds);
    // A resumed run already spent what its ledger says (its own sub-runs' spending included).
    const spentBefore = ledger.snapshot().total.credits;
    if (spentBefore > 0 && !options.subRunOf) budget.spend(spentBefore);
    let subRuns = 0;
    const trip = options.subRunOf?.trip ?? {};
    // Sub-runs take their video jobs' places from the same limit as their parent.
    const videoLimit = options.subRunOf?.videoLimit ?? pLimit(options.maxVideos ?? 4);
    const result = await executePipeline({
      spec: pipeline.spec,
      graph,
      kinds,
      inputs,
      run: { id: runId, dir: runDir, name },
      client,
      bus,
      journal,
      ledger,
      locate: (step) => stepLocation(pipeline, step),
      ...(previous ? { previous } : {}),
      ...(session ? { focus: session.focus } : {}),
      // Once a fan-out's length is known, a budget that cannot pay for all of it stops the
      // run before its first unit (unless a part of it is allowed).
      ...(estimate && !options.subRunOf
        ? {
            admit: budgetAdmission({
              estimate,
              budget,
              enforce: !options.allowPartial,
              onEstimate: (refined) => {
                runEstimate = refined;
                bus.emit({
                  type: "run.estimate",
                  estimate: refined,
                  ...(budgetMax === undefined ? {} : { maxCredits: budgetMax }),
                });
              },
              uncached: uncachedSteps(pipeline.spec),
              ...(options.cache === false
                ? {}
                : { cache: { location: cacheAt, service, pipelineDir } }),
            }),
          }
        : {}),
      signal,
      stop,
      concurrency: options.concurrency ?? 8,
      videoLimit,
      budget,
      cache: options.cache !== false,
      cacheDir,
      ...(options.cacheIndex ? { cacheIndex: options.cacheIndex } : {}),
      service,
      extras: {
        runId,
        pipelineDir,
        budget,
        knownProbes: new KnownProbes(),
        resubmitLostJobs: options.resubmitLostJobs === true,
        ...(options.autoApprove ? { autoApprove: true } : {}),
        ...(videoModels ? { videoModels } : {}),
        ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
        claimedJobs: new Set(held.map((job) => job.id)),
        runSubPipeline: async (file, subInputs, sub) => {
          const depth = depthOf(options) + 1;
          if (depth > MAX_SUB_PIPELINE_DEPTH) {
            trip.error = new SubPipelineDepthError(
              resolve(pipelineDir, file),
              depth,
              MAX_SUB_PIPELINE_DEPTH,
            );
            throw trip.error;
          }
          subRuns += 1;
          const subResult = await runPipeline(resolve(pipelineDir, file), {
            ...options,
            // What it shares with this run: the budget, the video limit, its depth, the
            // depth trip, and the models this run learned (it is not checked again).
            subRunOf: {
              budget,
              videoLimit,
              depth,
              trip,
              ...(videoModels ? { videoModels } : {}),
              ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
            },
            inputs: subInputs,
            resume: undefined,
            runDir: join(runDir, "subruns", `${sub.name}-${subRuns}`),
            client,
            signal: sub.signal,
            onEvent: undefined,
          });
          // What the sub-run spent belongs to the step whose tool started it.
          sub.onTotals?.({ ...subResult.totals, cachedSteps: 0 });
          return subPipelineOutputs(file, subResult, trip);
        },
      },
    });
    if (session || hasTakes(previous)) {
      // A retake that succeeded (now, or before a kill) keeps its files beside the picked ones.
      await keepFinishedTakes(sessionRun(replayJournal(readJournal(journalFile)))).catch(
        (error: unknown) =>
          bus.emit({
            type: "log",
            level: "warn",
            message: `a new take could not be kept beside the picked one: ${(error as Error).message}`,
          }),
      );
    }
    const { status: finalStatus, outputs, error } = settleRun(pipeline.spec, result);
    if (finalStatus === "waiting") {
      // Which gates, and what approving them starts (fan-outs counted from the outputs so far).
      const waiting = behindGates(pipeline, result, {
        inputs,
        ...(videoModels ? { videoModels } : {}),
        ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
        ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
      });
      bus.emit({ type: "run.waiting", ...waiting });
    }
    if (runEstimate) result.totals.estimatedCredits = runEstimate.credits;
    const durationMs = Date.now() - started;
    userSignal?.removeEventListener("abort", onUserAbort);
    stopSignal?.removeEventListener("abort", onStop);
    await journal.append({ type: "run.end", status: finalStatus });
    await journal.close();
    const runResult: RunResult = {
      status: finalStatus,
      runId,
      runDir,
      outputs,
      totals: result.totals,
      steps: result.steps,
      ...(error ? { error } : {}),
      durationMs,
    };
    writeJsonAtomic(join(runDir, "run.json"), {
      ...runJson,
      status: finalStatus,
      endedAt: new Date().toISOString(),
      totals: result.totals,
      outputs,
      ...(error ? { error } : {}),
    });
    bus.emit({
      type: "run.end",
      status: finalStatus,
      totals: result.totals,
      outputs,
      ...(error ? { error } : {}),
      durationMs,
    });
    bus.close();
    return runResult;
  } finally {
    releaseLock();
  }
}

/** The run options a run keeps in its journal (those given), for its later sessions. */
const JOURNALED = [
  "cache",
  "concurrency",
  "maxVideos",
  "maxCredits",
  "allowPartial",
  "autoApprove",
  "resubmitLostJobs",
] as const;

/** The options given that a run journals, and what the caller keeps with them. */
function journaledOptions(options: RunOptions): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of JOURNALED) if (options[name] !== undefined) kept[name] = options[name];
  if (options.keep) Object.assign(kept, options.keep);
  return kept;
}

/** The options of a later session: the journaled ones where it gives none. */
function withJournaled(options: RunOptions, journaled: Record<string, unknown>): RunOptions {
  const merged: Record<string, unknown> = { ...options };
  for (const name of JOURNALED) {
    if (merged[name] === undefined && journaled[name] !== undefined) merged[name] = journaled[name];
  }
  return merged as RunOptions;
}

/** `keep` as given (nothing when it was not). */
function keptOf(options: RunOptions): Partial<RunOptions> {
  return options.keep ? { keep: options.keep } : {};
}

/** The jobs a resumed run's units hold at the service, as their kinds read their journaled facts. */
function heldJobs(
  state: RunState | undefined,
  spec: ExecutableSpec,
  kinds: ReadonlyMap<string, AnyStepKind>,
): HeldJob[] {
  const held: HeldJob[] = [];
  for (const [id, step] of state?.steps ?? []) {
    const definition = spec.steps.find((entry) => entry.id === id);
    const kind = definition ? kindOf(definition as Record<string, unknown>, kinds) : undefined;
    if (!kind?.heldJob) continue;
    for (const item of step.items.values()) {
      // Every take's job is the run's (a job listed for a retake is never an earlier take's).
      const facts = [item.facts, ...[...(item.takes?.takes.values() ?? [])].map((t) => t.facts)];
      for (const known of facts) {
        const job = kind.heldJob(known as Record<string, Record<string, unknown>>);
        if (job && !held.some((other) => other.id === job.id)) held.push(job);
      }
    }
  }
  return held;
}

/**
 * What a focused session is expected to cost: one unit of its step when it pays (a retake:
 * never served by the cache), nothing when it does not (a pick).
 */
function focusedEstimate(
  pipeline: PipelineForRun,
  inputs: Record<string, unknown>,
  videoModels: VideoModelCatalog | undefined,
  session: FocusedSession,
  options: RunOptions,
): RunEstimate {
  if (!session.paid) return { credits: 0, complete: true, steps: {} };
  const plan = planPipeline(pipeline as unknown as LoadedPipeline, {
    inputs,
    ...(videoModels ? { videoModels } : {}),
    ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
    ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
  });
  const perUnit = plan.limits.estimate.steps[session.focus.step]?.perUnit;
  if (perUnit === undefined) return { credits: 0, complete: false, steps: {} };
  return {
    credits: perUnit,
    complete: true,
    steps: { [session.focus.step]: { perUnit, units: 1, credits: perUnit } },
  };
}

/** The model catalogs beyond video a run knows: its parent's (a sub-run), else its own. */
function catalogsOf(options: RunOptions): ModelCatalogs | undefined {
  return options.subRunOf?.catalogs ?? options.catalogs;
}
