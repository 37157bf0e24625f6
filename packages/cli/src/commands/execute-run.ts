import path from "node:path";
import type { PickRequest, RetakeRequest } from "@reelsmith/runner";
import type { OpenedRun } from "@reelsmith/runner/runs";
import { resolveService, takeProfileWarnings } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import type { RunResultView } from "../contracts/run-event.js";
import { ExitCode } from "../errors/cli-error.js";
import type { RunNotifier } from "../notify/run-notifier.js";
import { createRenderer } from "../render/create-renderer.js";
import { describeError } from "../render/describe-error.js";
import { displayPath } from "../render/display-path.js";
import { knownModelCatalogs } from "../services/known-model-catalogs.js";
import { type OpenService, openService } from "../services/open-service.js";
import type { ClosedOutputChoice } from "./closed-output-option.js";
import { checkInputs, loadValidPipeline } from "./load-valid-pipeline.js";
import { maxVideosSlots } from "./max-videos.js";
import { writeRunReport } from "./report-command.js";

/** What `run` and `resume` have in common. */
export interface ExecuteRunOptions {
  /** The pipeline file to run (absolute, or relative to the context's cwd). */
  pipeline: string;
  /** Resume this run directory instead of starting a new run. */
  resume?: string;
  inputs?: Record<string, unknown>;
  runDir?: string;
  concurrency?: number;
  maxVideos?: number;
  maxCredits?: number;
  /** Let a fan-out the budget cannot wholly pay for make what fits (`--allow-partial`). */
  allowPartial?: boolean;
  /** Reuse cached results; on resume, left out to keep what the run was started with. */
  cache?: boolean;
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  /** On resume, submit again journaled video jobs the service answers with 404. */
  resubmitLost?: boolean;
  /** Resume a run begun on the built-in simulator on a new one (whatever is configured). */
  builtIn?: boolean;
  /** Approve every gate the run reaches, by "auto" (`--auto-approve`, REELSMITH_AUTO_APPROVE). */
  autoApprove?: boolean;
  /**
   * What a closed stdout or stderr (EPIPE, a closed terminal) does to the run: `stop` (the
   * default) stops it as the first Ctrl-C does; `continue` takes it to its end. Nothing more
   * is written to the closed stream either way.
   */
  onClosedOutput?: ClosedOutputChoice;
  /** Told how the run ends (`--notify`); it never changes the exit code. */
  notifier?: RunNotifier;
  /**
   * With `resume`: make a new take of one unit (`retake`) or put a kept take back (`pick`),
   * running only what depends on it, instead of continuing the whole run.
   */
  take?: ({ retake: RetakeRequest } | { pick: PickRequest }) & {
    /** The run as it was opened and checked (its journal read once): the take goes on from it. */
    opened?: OpenedRun;
  };
}

/**
 * How to go on with a run stopped at a gate (`runDir` as it is shown, or a run id with
 * `database`).
 * @example waitingNotes("runs/20260101-120000-storyboard")
 */
export function waitingNotes(run: string, database = false): string[] {
  const db = database ? " --database …" : "";
  return database
    ? [
        `waiting for approval; the workers go on as soon as it is decided. Decide from any machine with: reelsmith approve ${run}${db} (or: reelsmith reject ${run}${db} --note WHY)`,
      ]
    : [
        `waiting for approval; nothing behind the gate was started. Approve with: reelsmith approve ${run}, then continue with: reelsmith resume ${run}`,
        `  (or in one step: reelsmith approve ${run} --continue; to stop here: reelsmith reject ${run} --note WHY)`,
      ];
}

/**
 * What a session of a run takes from its service, as `run`, `resume`, `retake`, `pick` and
 * the studio pass it to the runner: the client, the service it records, the cache, and
 * whether lost jobs are submitted again.
 * @example const runOptions = { ...serviceRunOptions(service, context, flags), resume: dir };
 */
export function serviceRunOptions(
  service: OpenService,
  context: CliContext,
  options: { cache?: boolean; resubmitLost?: boolean } = {},
) {
  return {
    client: service.client,
    baseURL: service.builtIn ? undefined : service.baseURL,
    builtInService: service.builtIn,
    // Left out unless given: a resumed run keeps what it was started with (default true).
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    cacheDir: path.resolve(context.cwd, ".reelsmith", "cache"),
    // The built-in simulator's jobs end with its process and its clips cost nothing, so a
    // resumed offline run submits them again; a real service's lost job needs the flag.
    resubmitLostJobs: options.resubmitLost === true || service.builtIn,
  };
}

/**
 * The run's queue limits: `--max-videos` for the video kind's queue (`maxVideosSlots`), and
 * each provider account's own (`max_concurrent_jobs`, on whatever its kinds hold of an
 * account).
 * @example await slotsOf(2, { fal: 1 }) // { slots: { video: 2 }, accountLimits: { fal: 1 } }
 */
export async function slotsOf(
  maxVideos: number | undefined,
  accountLimits: Readonly<Record<string, number>>,
): Promise<{ slots?: Record<string, number>; accountLimits?: Record<string, number> }> {
  return {
    ...(await maxVideosSlots(maxVideos)),
    ...(Object.keys(accountLimits).length > 0 ? { accountLimits: { ...accountLimits } } : {}),
  };
}

/**
 * Run (or resume) a pipeline with the runner, rendering its events, and return the exit code:
 * 0 succeeded, 1 failed or rejected, 3 stopped by its budget, 4 waiting at a gate (with how to
 * approve and go on), 130 interrupted (Ctrl-C or a closed output; after the journal settled,
 * with how to resume).
 *
 * @example
 * const code = await executeRun({ pipeline: "examples/storyboard/pipeline.yaml" }, context);
 */
export async function executeRun(options: ExecuteRunOptions, context: CliContext): Promise<number> {
  const catalogs = await knownModelCatalogs(options, context);
  for (const line of await takeProfileWarnings(context)) context.stderr.write(`${line}\n`);
  // The one model check: here on the built-in simulator (its catalogs are all it offers), with
  // the given inputs; on a real service by the runner, with the service's list, before its
  // first request.
  const builtIn =
    options.builtIn === true || !(await resolveService(options, context)).connection.baseURL;
  const pipeline = await loadValidPipeline(options.pipeline, context, {
    catalogs,
    models: builtIn && !options.resume ? { inputs: options.inputs ?? {} } : false,
  });
  options.notifier?.pipeline({ path: pipeline.path });
  const inputs = options.resume ? undefined : await checkInputs(pipeline, options.inputs ?? {});
  const rendered = createRenderer({ json: options.json ?? false, context });
  // A note the closed stdout cannot carry goes to stderr (the json renderer's notes already do).
  const renderer: typeof rendered = {
    ...rendered,
    note(message) {
      rendered.note(message);
      if (context.stdout.closed && !options.json) context.stderr.write(`${message}\n`);
    },
  };
  // The run's gentle stop: the first Ctrl-C, or (unless told to go on) a closed output.
  const stop = new AbortController();
  // Why the run was stopped, in the words of its note (the run itself ends `cancelled`).
  let stoppedBy = "Ctrl-C or SIGTERM";
  const stopOnClosed = options.onClosedOutput !== "continue";
  const onClosedOutput = () => {
    if (stopOnClosed) {
      if (!stop.signal.aborted) stoppedBy = "its output was closed";
      renderer.note(
        "the output was closed: stopping as on Ctrl-C (nothing new starts; the video jobs already submitted are waited for and kept). `--on-closed-output continue` goes on to the end instead.",
      );
      stop.abort();
    } else {
      renderer.note("the output was closed: going on to the end (--on-closed-output continue)");
    }
  };
  const onInterrupt = () => stop.abort();
  if (context.signal.aborted) stop.abort();
  else context.signal.addEventListener("abort", onInterrupt, { once: true });
  if (context.outputClosed?.aborted) onClosedOutput();
  else context.outputClosed?.addEventListener("abort", onClosedOutput, { once: true });
  const service = await openService(options, context, (line) => renderer.note(line), {
    builtIn: options.builtIn === true,
    // A pick asks the service nothing.
    requireKey: !(options.take && "pick" in options.take),
  });
  let result: RunResultView;
  try {
    // On resume the runner picks the pipeline itself and refuses one that changed.
    const runner = await import("@reelsmith/runner");
    const runOptions = {
      inputs,
      runDir: options.runDir ? path.resolve(context.cwd, options.runDir) : undefined,
      runsRoot: path.resolve(context.cwd, "runs"),
      ...serviceRunOptions(service, context, options),
      ...(catalogs ? { catalogs } : {}),
      concurrency: options.concurrency,
      // `--max-videos` is the limit of the video queue (the kind that makes clips names it);
      // each provider account's `max_concurrent_jobs` holds its own requests within it.
      ...(await slotsOf(options.maxVideos, service.accountLimits)),
      maxCredits: options.maxCredits,
      // First Ctrl-C (or a closed output): stop (jobs already paid for are waited for); a
      // second Ctrl-C: leave at once.
      stopSignal: stop.signal,
      signal: context.forceSignal ?? context.signal,
      ...(options.allowPartial ? { allowPartial: true } : {}),
      resume: options.resume ? path.resolve(context.cwd, options.resume) : undefined,
      ...(options.autoApprove ? { autoApprove: true } : {}),
    };
    const take = options.resume ? options.take : undefined;
    const stream = !take
      ? runner.streamPipeline(options.resume ? undefined : pipeline.path, runOptions)
      : "retake" in take
        ? runner.streamRetake(take.opened ?? runOptions.resume ?? "", take.retake, runOptions)
        : runner.streamPick(take.opened ?? runOptions.resume ?? "", take.pick, runOptions);
    const onStop = () => {
      if (context.forceSignal?.aborted) return;
      renderer.note(
        "stopping: nothing new starts; waiting for the video jobs already submitted (they are paid for). Press Ctrl-C again to leave them to `reelsmith resume`.",
      );
    };
    if (context.signal.aborted) onStop();
    else context.signal.addEventListener("abort", onStop, { once: true });
    for await (const event of stream) {
      renderer.event(event);
      options.notifier?.event(event);
    }
    result = await stream.result;
    context.signal.removeEventListener("abort", onStop);
  } finally {
    context.signal.removeEventListener("abort", onInterrupt);
    context.outputClosed?.removeEventListener("abort", onClosedOutput);
    await service.close();
  }
  const report = await writeRunReport(result.runDir, context, (line) => renderer.note(line));
  renderer.end(report ? { ...result, report } : result);
  const runDir = displayPath(result.runDir, context.cwd);
  // A local run is cancelled only by this process's stop (Ctrl-C, a closed output): that is
  // an interruption.
  const interrupted =
    result.status === "cancelled" || (result.status !== "succeeded" && stop.signal.aborted);
  const code = exitCodeOf(result, {
    interrupted,
    stoppedBy,
    runDir,
    unit: takeUnitFlags(options.take),
    renderer,
  });
  await options.notifier?.ended({
    runStatus: interrupted ? "cancelled" : result.status,
    exitCode: code,
    interrupted,
    ...(report ? { report } : {}),
  });
  return code;
}

/** The exit code of a run's end, with the note on what to do next. */
function exitCodeOf(
  result: RunResultView,
  end: {
    interrupted: boolean;
    stoppedBy: string;
    runDir: string;
    unit: string | undefined;
    renderer: Pick<ReturnType<typeof createRenderer>, "note">;
  },
): number {
  const { interrupted, stoppedBy, runDir, unit, renderer } = end;
  let code: number;
  if (result.status === "succeeded") {
    code = ExitCode.ok;
    if (unit) {
      renderer.note(
        `every take is kept; put one back with: reelsmith pick ${runDir} ${unit} --take N`,
      );
    }
  } else if (interrupted) {
    // The run's own word (run.json, the summary, the report say `cancelled`), and why.
    renderer.note(
      `cancelled (${stoppedBy}); nothing finished is lost. Continue with: reelsmith resume ${runDir}`,
    );
    code = ExitCode.interrupted;
  } else if (result.status === "budget_reached") {
    renderer.note(`stopped: ${describeError(result.error)}`);
    renderer.note(
      `finished steps and clips are kept; raise the budget and continue with: reelsmith resume ${runDir} --max-credits N`,
    );
    code = ExitCode.budget;
  } else if (result.status === "waiting") {
    for (const line of waitingNotes(runDir)) renderer.note(line);
    code = ExitCode.waiting;
  } else if (result.status === "rejected") {
    renderer.note(`rejected: ${describeError(result.error)}`);
    renderer.note("nothing behind the gate ran; the steps before it are kept in the run directory");
    code = ExitCode.failed;
  } else {
    renderer.note(`error: ${describeError(result.error)}`);
    // Resume retries what failed with the same pipeline: right for a service's failure or a
    // file put back, useless for a mistake in the pipeline, whose changed file resume refuses.
    renderer.note(
      `finished steps and clips are kept; once the cause is fixed, retry the rest with: reelsmith resume ${runDir} (after changing the pipeline file, run it again instead: the cache serves what was already made)`,
    );
    code = ExitCode.failed;
  }
  return code;
}

/** `--step ID --item N` of a retake or a pick, for the notes that name it again. */
function takeUnitFlags(take: ExecuteRunOptions["take"]): string | undefined {
  const target = take && ("retake" in take ? take.retake : take.pick);
  if (!target) return undefined;
  return `--step ${target.step}${target.index === undefined ? "" : ` --item ${target.index}`}`;
}
