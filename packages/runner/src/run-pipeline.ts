import { setMaxListeners } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import pLimit from "p-limit";
import { BUILT_IN_SERVICE, serviceIdentity } from "./cache/service-identity.js";
import { DEFAULT_CACHE_DIR } from "./cache/step-cache.js";
import { PipelineChangedError } from "./errors/pipeline-changed-error.js";
import { ResumeError } from "./errors/resume-error.js";
import { serializeError } from "./errors/serialize-error.js";
import { SubPipelineDepthError } from "./errors/sub-pipeline-depth-error.js";
import { createEventBus, type EventBus } from "./events/event-bus.js";
import { type CreditBudget, createBudget, sharedBudget } from "./executor/budget.js";
import { checkModels } from "./executor/check-models.js";
import { createRunClient } from "./executor/create-run-client.js";
import { executePipeline } from "./executor/execute-pipeline.js";
import { loadForRun, type PipelineForRun, runInputs } from "./executor/load-for-run.js";
import {
  createRunDirectory,
  leftoverStaging,
  newRunId,
  removeStaging,
  writeJsonAtomic,
} from "./executor/run-directory.js";
import type { LimitRunner } from "./executor/slot-pool.js";
import { evaluateValue } from "./expressions/index.js";
import { openJournal, readJournal } from "./journal/journal.js";
import { encodeRecord } from "./journal/journal-record.js";
import { type RunState, replayJournal } from "./journal/journal-state.js";
import { acquireRunLock } from "./journal/run-lock.js";
import { KnownProbes } from "./media-probes/known-probes.js";
import type { LoadedPipeline } from "./pipeline/load-pipeline.js";
import { MAX_SUB_PIPELINE_DEPTH } from "./pipeline/sub-pipelines.js";
import { loadPipeline } from "./pipeline/validate-pipeline.js";
import { buildGraph } from "./plan/build-graph.js";
import type { RunOptions, RunResult } from "./run-options.js";
import { kindOf, kindsByName } from "./steps/registry.js";

/** How many sub-pipelines deep a run is (0 for the run the caller started). */
const subPipelineDepth = Symbol("reelsmith.subPipelineDepth");
/** Shared by a run and all its sub-runs: the depth error once one of them hit the limit. */
const depthTrip = Symbol("reelsmith.subPipelineDepthTrip");
/** Shared by a run and all its sub-runs: the video jobs in flight together. */
const sharedVideoLimit = Symbol("reelsmith.sharedVideoLimit");
/**
 * Run options plus what a sub-pipeline run shares with its parent: the budget it spends
 * from, the video limit, and its depth.
 */
type InternalRunOptions = RunOptions & {
  [sharedBudget]?: CreditBudget;
  [sharedVideoLimit]?: LimitRunner;
  [subPipelineDepth]?: number;
  [depthTrip]?: { error?: SubPipelineDepthError };
};

/** How many sub-pipelines deep a run is: 0 for a run its caller started on its own. */
function depthOf(options: InternalRunOptions): number {
  return options[subPipelineDepth] ?? options.subRunOf?.depth ?? 0;
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

/** Runs a pipeline with a given event bus (streamPipeline subscribes before the start). */
export async function runWithBus(
  pipelineArgument: string | object | undefined,
  options: RunOptions,
  bus: EventBus,
): Promise<RunResult> {
  const started = Date.now();
  // The schema knows the built-in kinds; custom kinds (tests, extensions) skip it.
  const validate = options.stepKinds === undefined;
  const loadOptions = {
    validate,
    ...(options.videoModels ? { videoModels: options.videoModels } : {}),
  };
  let previous: RunState | undefined;
  let runDir = options.resume ? resolve(options.resume) : ""; // a new run: named below
  let pipeline: PipelineForRun;
  let inputs: Record<string, unknown>;
  let runId: string;
  if (options.resume) {
    const journalFile = join(runDir, "journal.jsonl");
    if (!existsSync(runDir)) {
      const staged = leftoverStaging(runDir);
      if (staged.length === 0) throw new ResumeError(runDir, "it does not exist");
      // Killed before the directory got its name: no request was sent, nothing to continue.
      removeStaging(staged);
      throw new ResumeError(
        runDir,
        "nothing was started there (the run was stopped before its first request); start it again with `reelsmith run`",
        "nothing_started",
      );
    }
    if (!existsSync(journalFile)) throw new ResumeError(runDir, "it has no journal.jsonl");
    previous = replayJournal(readJournal(journalFile));
    const start = previous.start;
    if (!start) throw new ResumeError(runDir, "its journal has no run.start record");
    const originalPath = String(start.pipelinePath ?? "");
    const source =
      pipelineArgument ??
      (originalPath && originalPath !== "<inline>" && existsSync(originalPath)
        ? originalPath
        : join(runDir, "pipeline.yaml"));
    pipeline = await loadForRun(source, loadOptions);
    if (pipeline.hash !== start.pipelineHash) {
      throw new PipelineChangedError(runDir, String(start.pipelineHash), pipeline.hash);
    }
    inputs =
      (start.inputs as Record<string, unknown>) ??
      runInputs(pipeline, options.inputs ?? {}, validate);
    runId = String(start.runId);
  } else {
    if (pipelineArgument === undefined)
      throw new TypeError("runPipeline needs a pipeline (a file path or object)");
    pipeline = await loadForRun(pipelineArgument, loadOptions);
    inputs = runInputs(pipeline, options.inputs ?? {}, validate);
    runId = newRunId();
  }
  const previousRunJson = options.resume ? readRunJson(resolve(options.resume)) : undefined;
  if (options.resume && options.builtInService && previousRunJson?.builtInService !== true) {
    throw new ResumeError(
      runDir,
      `it ran on ${previousRunJson?.baseURL ?? "another service"}, not on a built-in simulator; a run keeps the service it started with`,
      "service_changed",
    );
  }
  const client = createRunClient(options, previousRunJson?.baseURL);
  let videoModels = options.videoModels;
  if (validate && depthOf(options) === 0) {
    // One free request before anything is paid (sub-runs were checked with their parent).
    videoModels = await checkModels(
      pipeline as unknown as LoadedPipeline,
      client,
      options.videoModels,
      options.signal,
    );
    if (videoModels && videoModels !== options.videoModels) {
      // Limits learned from the service's list: every literal value is checked against them
      // now, before anything is paid (PipelineLoadError with each problem's position).
      await loadPipeline({ source: pipeline.source, path: pipeline.path }, { videoModels });
    }
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
    startedAt: previousRunJson?.startedAt ?? new Date(started).toISOString(),
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
    const journal = openJournal(join(runDir, "journal.jsonl"));
    if (options.resume) await journal.append({ type: "run.resume", runId });
    // One run-wide signal that many units listen to; the caller's signal aborts it.
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const userSignal = options.signal;
    const onUserAbort = () => controller.abort(userSignal?.reason);
    if (userSignal?.aborted) onUserAbort();
    else userSignal?.addEventListener("abort", onUserAbort, { once: true });
    const signal = controller.signal;
    const graph = buildGraph(pipeline as unknown as Parameters<typeof buildGraph>[0]);
    const kinds = kindsByName(options.stepKinds);
    bus.emit({
      type: "run.start",
      runId,
      runDir,
      name,
      resumed: Boolean(options.resume),
      steps: pipeline.spec.steps.map((s) => ({
        id: s.id,
        kind: kindOf(s as Record<string, unknown>, kinds)?.kind ?? "unknown",
        fanOut: s.for_each !== undefined,
      })),
    });
    const maxCredits = options.maxCredits ?? pipeline.spec.max_credits;
    const budget =
      (options as InternalRunOptions)[sharedBudget] ??
      options.subRunOf?.budget ??
      createBudget(maxCredits, (credits, max) =>
        bus.emit({ type: "budget.reached", credits, maxCredits: max }),
      );
    // A resumed run already spent the credits of the jobs it completed before.
    for (const step of previous?.steps.values() ?? []) {
      for (const item of step.items.values()) {
        const job = item.facts["video.completed"]?.job as
          | { usage?: { total_credits?: number } }
          | undefined;
        budget.spend(Number(job?.usage?.total_credits ?? 0));
      }
    }
    const cacheDir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
    let subRuns = 0;
    const trip = (options as InternalRunOptions)[depthTrip] ?? {};
    // Sub-runs take their video jobs' places from the same limit as their parent.
    const videoLimit =
      (options as InternalRunOptions)[sharedVideoLimit] ??
      options.subRunOf?.videoLimit ??
      pLimit(options.maxVideos ?? 4);
    const result = await executePipeline({
      spec: pipeline.spec,
      graph,
      kinds,
      inputs,
      run: { id: runId, dir: runDir, name },
      client,
      bus,
      journal,
      ...(previous ? { previous } : {}),
      signal,
      concurrency: options.concurrency ?? 8,
      videoLimit,
      budget,
      cache: options.cache !== false,
      cacheDir,
      ...(options.cacheIndex ? { cacheIndex: options.cacheIndex } : {}),
      // Results of a built-in simulator are shared across runs whatever port it had.
      service: options.builtInService ? BUILT_IN_SERVICE : serviceIdentity(client?.baseURL),
      extras: {
        runId,
        pipelineDir,
        budget,
        knownProbes: new KnownProbes(),
        resubmitLostJobs: options.resubmitLostJobs === true,
        ...(videoModels ? { videoModels } : {}),
        claimedJobs: journaledJobs(previous),
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
          const subOptions: InternalRunOptions = {
            ...options,
            // The models the parent learned from the service: sub-runs are not checked again.
            ...(videoModels ? { videoModels } : {}),
            [sharedBudget]: budget,
            [sharedVideoLimit]: videoLimit,
            [subPipelineDepth]: depth,
            subRunOf: undefined,
            [depthTrip]: trip,
            inputs: subInputs,
            resume: undefined,
            runDir: join(runDir, "subruns", `${sub.name}-${subRuns}`),
            client,
            signal: sub.signal,
            onEvent: undefined,
          };
          const subResult = await runPipeline(resolve(pipelineDir, file), subOptions);
          // What the sub-run spent belongs to the step whose tool started it.
          sub.onTotals?.({ ...subResult.totals, cachedSteps: 0 });
          // Too deep below: every enclosing step fails too, rather than tell the model.
          if (trip.error) throw trip.error;
          if (subResult.status !== "succeeded") {
            throw new Error(
              `sub-pipeline ${file} ${subResult.status}: ${subResult.error?.message ?? "no error"}`,
            );
          }
          return subResult.outputs;
        },
      },
    });
    let outputs: Record<string, unknown> = {};
    let error = result.error === undefined ? undefined : serializeError(result.error);
    const status = result.cancelled ? "cancelled" : error ? "failed" : "succeeded";
    if (status === "succeeded" && pipeline.spec.outputs) {
      try {
        outputs = evaluateValue(pipeline.spec.outputs, result.context) as Record<string, unknown>;
      } catch (caught) {
        error = serializeError(caught);
      }
    }
    const finalStatus = status === "succeeded" && error ? "failed" : status;
    const durationMs = Date.now() - started;
    userSignal?.removeEventListener("abort", onUserAbort);
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

/** The video job ids a run's journal holds (none for a new run). */
function journaledJobs(state: RunState | undefined): Set<string> {
  const jobs = new Set<string>();
  for (const step of state?.steps.values() ?? [])
    for (const item of step.items.values()) {
      const jobId = item.facts["video.submitted"]?.jobId;
      if (typeof jobId === "string") jobs.add(jobId);
    }
  return jobs;
}

function readRunJson(
  runDir: string,
): { baseURL?: string; startedAt?: string; builtInService?: boolean } | undefined {
  try {
    return JSON.parse(readFileSync(join(runDir, "run.json"), "utf8"));
  } catch {
    return undefined;
  }
}
