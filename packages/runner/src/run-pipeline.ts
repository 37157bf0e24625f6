import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUILT_IN_SERVICE, serviceIdentity } from "./cache/service-identity.js";
import { DEFAULT_CACHE_DIR } from "./cache/step-cache.js";
import { PipelineChangedError } from "./errors/pipeline-changed-error.js";
import { ResumeError } from "./errors/resume-error.js";
import { createEventBus, type EventBus } from "./events/event-bus.js";
import { checkModels } from "./executor/check-models.js";
import { createRunClient } from "./executor/create-run-client.js";
import { inspectRun, type RunOnDisk } from "./executor/inspect-run.js";
import { learnedModels, type ModelCheckOutcome } from "./executor/learned-models.js";
import { loadForRun, runInputs } from "./executor/load-for-run.js";
import { newRunId } from "./executor/run-directory.js";
import type { FocusedSession, OpenedRun, PrepareSession } from "./executor/run-session.js";
import { acquireRunLock } from "./journal/run-lock.js";
import { journaledOptions, withJournaled } from "./lifecycle/journaled-options.js";
import { catalogs as catalogsOf, localHost } from "./lifecycle/local-host.js";
import { runLifecycle } from "./lifecycle/run-lifecycle.js";
import { runToPlay } from "./lifecycle/run-to-play.js";
import { problemsWithModels } from "./pipeline/check/check-with-models.js";
import type { LoadedPipeline } from "./pipeline/load-pipeline.js";
import { loadPipeline } from "./pipeline/validate-pipeline.js";
import { invalidPipeline } from "./plan/plan-problems.js";
import type { RunOptions, RunResult } from "./run-options.js";
import { kindsByName } from "./steps/registry.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "./steps/step-kind.js";
import { hasTakes } from "./takes/keep-take.js";

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
 * focused session (a retake, a pick: `takes/`) resumes the run for one unit only, made by
 * `prepare` from the run as the resume loaded it. A resume holds the run's lock from before
 * it reads the journal: what it read is what the run goes on from (read once).
 */
export async function runWithBus(
  pipelineArgument: string | object | undefined,
  given: RunOptions,
  bus: EventBus,
  prepare?: PrepareSession,
  opened?: OpenedRun,
): Promise<RunResult> {
  if (prepare && !given.resume) throw new TypeError("a focused session resumes a run");
  if (opened) return runLocal(pipelineArgument, given, bus, prepare, true, opened);
  const release = given.resume ? lockRun(resolve(given.resume)) : undefined;
  try {
    return await runLocal(pipelineArgument, given, bus, prepare, release !== undefined);
  } finally {
    release?.();
  }
}

/**
 * The run's lock when `dir` is a run (inspectRun says what else it is), one process driving
 * it at a time; undefined for anything else.
 * @example const release = lockRun("runs/x"); try { inspectRun("runs/x") } finally { release?.() }
 */
export function lockRun(dir: string): (() => void) | undefined {
  return existsSync(join(dir, "journal.jsonl")) ? acquireRunLock(dir) : undefined;
}

/** A run ready for its host: its options, pipeline and inputs; a resume's run on disk and session. */
interface RunLoaded {
  options: RunOptions;
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  onDisk?: RunOnDisk | undefined;
  session?: FocusedSession | undefined;
}

/**
 * The pipeline loaded and validated (custom kinds with their own schemas and checks); a
 * resume's run read from disk, its pipeline unchanged, its session made, its journaled options
 * kept, and its service the one it started with.
 */
async function loadRun(
  pipelineArgument: string | object | undefined,
  given: RunOptions,
  prepare: PrepareSession | undefined,
  opened?: OpenedRun,
): Promise<RunLoaded> {
  let options = given;
  // Every run is validated, custom kinds with their own schemas and checks.
  const loadOptions = {
    validate: true,
    ...(catalogsOf(options) ? { catalogs: catalogsOf(options) } : {}),
    // The models are checked with the service's list before the first request (learnModels).
    models: false as const,
    ...(options.stepKinds
      ? { stepKinds: options.stepKinds as readonly StepKindSpec<never>[] }
      : {}),
  };
  if (!options.resume) {
    if (pipelineArgument === undefined)
      throw new TypeError("runPipeline needs a pipeline (a file path or object)");
    const pipeline = await loadForRun(pipelineArgument, loadOptions);
    return { options, pipeline, inputs: runInputs(pipeline, options.inputs ?? {}, true) };
  }
  const onDisk = opened?.onDisk ?? inspectRun(resolve(options.resume));
  const pipeline = opened
    ? opened.validated
      ? opened.pipeline
      : await loadPipeline(opened.pipeline, loadOptions)
    : await loadForRun(pipelineArgument ?? onDisk.pipelinePath, loadOptions);
  if (pipeline.hash !== onDisk.start.pipelineHash) {
    throw new PipelineChangedError(onDisk.runDir, String(onDisk.start.pipelineHash), pipeline.hash);
  }
  const session = await prepare?.({ onDisk, pipeline });
  const inputs =
    (onDisk.start.inputs as Record<string, unknown>) ??
    runInputs(pipeline, options.inputs ?? {}, true);
  // A resume, a decision's continue or a retake keeps how the run was started, unless told.
  options = withJournaled(options, onDisk.options);
  if (options.builtInService && !onDisk.builtInService) {
    throw new ResumeError(
      onDisk.runDir,
      `it ran on ${onDisk.baseURL ?? "another service"}, not on a built-in simulator; a run keeps the service it started with`,
      "service_changed",
    );
  }
  return { options, pipeline, inputs, onDisk, session };
}

/**
 * The local host's set-up: the pipeline loaded (a resume: the run on disk, unchanged), the
 * session made, the client, the models checked, then the run's lifecycle on the file journal
 * (`localHost`).
 */
async function runLocal(
  pipelineArgument: string | object | undefined,
  given: RunOptions,
  bus: EventBus,
  prepare: PrepareSession | undefined,
  locked: boolean,
  opened?: OpenedRun,
): Promise<RunResult> {
  const started = new Date().toISOString();
  const { options, pipeline, inputs, onDisk, session } = await loadRun(
    pipelineArgument,
    given,
    prepare,
    opened,
  );
  const client = createRunClient(options, onDisk?.baseURL);
  const cacheDir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  // Results of a built-in simulator are shared across runs whatever port it had.
  const service = options.builtInService ? BUILT_IN_SERVICE : serviceIdentity(client?.baseURL);
  const kinds = kindsByName(options.stepKinds);
  const catalogs =
    depthOf(options) === 0 && session?.paid !== false
      ? await learnModels(pipeline, client, { ...options, inputs }, kinds, bus)
      : catalogsOf(options);
  const name = pipeline.spec.name ?? "run";
  const runId = onDisk?.runId ?? newRunId();
  const host = localHost({
    options,
    bus,
    pipeline,
    inputs,
    runId,
    name,
    kinds,
    runDir: onDisk?.runDir,
    ...(onDisk
      ? {
          read: {
            records: onDisk.records,
            state: onDisk.state,
            locked,
            // A session, or a run whose takes may be kept at its end, reads its journal
            // again: from memory.
            keep: session !== undefined || hasTakes(onDisk.state),
          },
        }
      : {}),
    client,
    cache: {
      enabled: options.cache !== false,
      dir: cacheDir,
      ...(options.cacheIndex ? { index: options.cacheIndex } : {}),
      service,
    },
    catalogs,
    session,
    runJson: {
      pipeline: { path: pipeline.path, hash: pipeline.hash },
      baseURL: typeof client?.baseURL === "string" ? client.baseURL : undefined,
      ...(options.builtInService ? { builtInService: true } : {}),
    },
    runSub: runPipeline,
  });
  try {
    const result = await runLifecycle(
      runToPlay({
        pipeline,
        inputs,
        runId,
        name,
        startedAt: onDisk?.startedAt ?? started,
        journaled: journaledOptions(onDisk ? given : options),
        maxCredits: options.maxCredits,
        startedWith: onDisk?.start.maxCredits,
        // A sub-run spends from its parent's estimate, checked there.
        estimate: depthOf(options) === 0,
        focus: session ? { ...session.focus, paid: session.paid } : undefined,
        allowPartial: options.allowPartial,
        kinds,
        catalogs,
        stepKinds: options.stepKinds,
      }),
      host,
    );
    bus.close();
    return result;
  } finally {
    host.release();
  }
}

/**
 * One free request before anything is paid (sub-runs were checked with their parent; a
 * session that pays for nothing, a pick, asks the service nothing): the models the service
 * lists, and each step's literal values checked against their limits. The list a client read
 * within the last minute is used again, and so is the passing check of the same inline
 * pipeline (`learnedModels`); a model or a value the kept list refuses is judged again with
 * a list read now.
 */
async function learnModels(
  pipeline: LoadedPipeline,
  client: ReturnType<typeof createRunClient>,
  options: RunOptions,
  kinds: ReadonlyMap<string, AnyStepKind>,
  bus: EventBus,
): Promise<ModelCatalogs | undefined> {
  const warn = (message: string) => bus.emit({ type: "log", level: "warn", message });
  const learned = client ? learnedModels(client) : undefined;
  const key = learned?.key({
    path: pipeline.path,
    hash: pipeline.hash,
    inputs: options.inputs,
    kinds: options.stepKinds,
    catalogs: options.catalogs,
  });
  const kept = learned?.outcome(key);
  if (kept) {
    for (const message of kept.warnings) warn(message);
    return kept.catalogs;
  }
  const check = async (): Promise<ModelCheckOutcome> => {
    const warnings: string[] = [];
    const catalogs = await checkModels(pipeline, client, options.catalogs, {
      kinds,
      inputs: options.inputs,
      signal: options.signal,
      warn: (message) => warnings.push(message),
      ...(learned
        ? {
            listModels: () =>
              learned.list(() =>
                client.models.list(options.signal ? { signal: options.signal } : {}),
              ),
          }
        : {}),
    });
    if (catalogs && catalogs !== options.catalogs) {
      const problems = problemsWithModels(pipeline.spec, kinds, catalogs);
      if (problems.length > 0) throw invalidPipeline(pipeline, problems);
    }
    return { catalogs, warnings };
  };
  const listKept = learned?.listKept() === true;
  let outcome: ModelCheckOutcome;
  try {
    outcome = await check();
  } catch (error) {
    // Refused with a list read earlier: judged again with the service's list as it is now.
    if (!listKept || !learned || options.signal?.aborted) throw error;
    learned.forget();
    outcome = await check();
  }
  learned?.keep(key, outcome);
  for (const message of outcome.warnings) warn(message);
  return outcome.catalogs;
}
