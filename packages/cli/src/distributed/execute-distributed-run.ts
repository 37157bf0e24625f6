import { existsSync } from "node:fs";
import path from "node:path";
import type { ProviderProfile } from "@reelsmith/core/profile";
import {
  type Coordinator,
  followRun,
  resumeRun,
  type SubmitRunOptions,
  submitRun,
} from "@reelsmith/distributed";
import { lastEventId } from "@reelsmith/distributed/internal";
import type { ProfileService } from "@reelsmith/runner/profile";
import { waitingNotes } from "../commands/execute-run.js";
import { checkInputs, loadValidPipeline } from "../commands/load-valid-pipeline.js";
import { maxVideosSlots } from "../commands/max-videos.js";
import { resolveService, takeProfileWarnings } from "../config/cli-profile.js";
import { addSecret, type CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import type { RunNotifier } from "../notify/run-notifier.js";
import { createRenderer } from "../render/create-renderer.js";
import { describeError } from "../render/describe-error.js";
import { listedVideoModels } from "../services/listed-video-models.js";
import { openCoordinator } from "./database-option.js";

/** What `run --database` and `resume --database` take. */
export interface DistributedRunOptions {
  database: string;
  /** The pipeline file (run), or the run id (resume). */
  pipeline?: string;
  resumeRunId?: string;
  inputs?: Record<string, unknown>;
  artifacts?: string;
  maxVideos?: number;
  maxCredits?: number;
  requestsPerMinute?: number;
  accountBudget?: number;
  account?: string;
  cache?: boolean;
  json?: boolean;
  detach?: boolean;
  baseUrl?: string;
  apiKey?: string;
  /** Told how the followed run ends (`--notify`); never when following stops early. */
  notifier?: RunNotifier;
  /** Approve every gate the run reaches, by "auto" (`--auto-approve`). */
  autoApprove?: boolean;
  allowPartial?: boolean;
  /**
   * Follow a run that a decision takes on from this attempt (`approve --continue`): its
   * workers enqueue the next attempt, so this only waits for it, never resumes it.
   */
  continuesFrom?: number;
}

/**
 * Waits until the run has gone past `attempt` (a worker took the decision and enqueued the
 * next attempt), so that following it does not stop at the end of the attempt that waited.
 */
async function nextAttempt(
  coordinator: Coordinator,
  runId: string,
  attempt: number,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    const run = await coordinator.store.getRun(runId).catch(() => undefined);
    if (run && (run.attempt > attempt || run.status !== "waiting")) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * What a profile says of the service that workers need to build their clients (never the key).
 * @example const client = workerClientOptions(service.clientOptions);
 */
export function workerClientOptions(options: ProfileService["clientOptions"]) {
  return {
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.honoursIdempotencyKeys === undefined
      ? {}
      : { honoursIdempotencyKeys: options.honoursIdempotencyKeys }),
    ...(options.listsJobs === undefined ? {} : { listsJobs: options.listsJobs }),
    ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
  };
}

/**
 * What the workers need of a profile's provider accounts (`providers:`): each account's
 * address, client options, the NAMES of its key's variables (each worker reads the key from
 * its own environment) and its job limit, and the account of each model. Refused before
 * the run is stored when an account has no address (workers cannot reach a simulator of this
 * process).
 */
async function workerAccounts(
  service: ProfileService | undefined,
  profile: ProviderProfile | undefined,
  shown: string | undefined,
): Promise<Pick<SubmitRunOptions, "accounts" | "models">> {
  const accounts = service?.accounts ?? [];
  if (accounts.length === 0 || !profile) return {};
  const unaddressed = accounts.filter((account) => !account.baseURL);
  if (unaddressed.length > 0) {
    throw new UsageError(
      `${shown ?? "the profile"} gives no address to ${unaddressed.map((account) => `providers.${account.name}`).join(", ")}, which every worker must reach`,
      {
        code: "service_required",
        hint: `set ${unaddressed.map((account) => `providers.${account.name}.base_url`).join(", ")}; the built-in simulator lives in one process only`,
      },
    );
  }
  const { modelProviders } = await import("@reelsmith/core/profile");
  return {
    accounts: accounts.map((account) => ({
      name: account.name,
      baseURL: account.baseURL as string,
      client: workerClientOptions(account.clientOptions),
      apiKeyEnv: account.apiKeyVariables,
      ...(account.maxConcurrentJobs === undefined
        ? {}
        : { maxConcurrentJobs: account.maxConcurrentJobs }),
    })),
    models: Object.fromEntries(modelProviders(profile)),
  };
}

/**
 * `run FILE --database URL`: every static check here first (as a local run), then the run is
 * stored (with what a provider profile says of the service: dialect, idempotency, listing,
 * poll interval, video models) and enqueued for the workers, and followed with the same progress display and exit
 * codes as a local run; `--detach` prints the run id and returns at once. Ctrl-C stops
 * following only: the run goes on on the workers.
 * @example const code = await executeDistributedRun({ database, pipeline: "p.yaml" }, context);
 */
export async function executeDistributedRun(
  options: DistributedRunOptions,
  context: CliContext,
): Promise<number> {
  const renderer = createRenderer({ json: options.json ?? false, context });
  let coordinator: Coordinator | undefined;
  try {
    const open = async () => {
      coordinator = await openCoordinator(options.database, context);
      return coordinator;
    };
    let runId: string;
    let after = 0;
    let following: Coordinator;
    if (options.resumeRunId) {
      runId = options.resumeRunId;
      following = await open();
      after = await resumeDistributed(options, renderer, runId, following);
    } else {
      ({ runId, coordinator: following } = await submitDistributed(
        options,
        context,
        renderer,
        open,
      ));
    }
    if (options.detach) {
      context.stdout.write(`${runId}\n`);
      return ExitCode.ok;
    }
    renderer.note(`run ${runId} queued; following it (Ctrl-C stops following, not the run)`);
    let result: Awaited<ReturnType<typeof followRun>>;
    try {
      if (options.continuesFrom !== undefined) {
        await nextAttempt(following, runId, options.continuesFrom, context.signal);
      }
      result = await followRun(following, runId, {
        onEvent: (event) => {
          renderer.event(event);
          options.notifier?.event(event);
        },
        signal: context.signal,
        afterEventId: after,
        onDatabaseWait: ({ waiting, waitedMs }) =>
          renderer.note(
            waiting
              ? "waiting for the database (it does not answer); the run goes on once it is back"
              : `the database answers again after ${Math.round(waitedMs / 1000)} s; following the run`,
          ),
        // The run waits in the queue until a worker takes it: say so, and how to start one.
        onNoWorker: ({ sinceMs, count }) =>
          renderer.note(
            `no live worker on this database ${count === 1 ? "yet" : `for ${Math.round(sinceMs / 1000)} s`}: the run waits in the queue until one starts. Start one with: reelsmith worker --database … (on any machine that reaches the database and the service)`,
          ),
      });
    } catch (error) {
      if (context.signal.aborted) {
        renderer.note(
          `stopped following; the run goes on. Watch it with: reelsmith status ${runId}${options.notifier ? " (no notification is sent: this process no longer sees the run end)" : ""}`,
        );
        return ExitCode.interrupted;
      }
      throw error;
    }
    // The run's report, when a worker wrote one where this machine sees it (a shared run
    // directory, or a worker on this machine): the summary names it, as a local run's does.
    const written = path.join(result.runDir, "report.html");
    const report = existsSync(written) ? written : undefined;
    renderer.end(report ? { ...result, report } : result);
    const code = exitCodeOf(result, runId, renderer);
    await options.notifier?.ended({
      runStatus: result.status,
      exitCode: code,
      ...(report ? { report } : {}),
    });
    return code;
  } finally {
    await coordinator?.close();
  }
}

type Renderer = ReturnType<typeof createRenderer>;

/**
 * Resumes a run of the database, or follows it when it still runs: the id of the last event
 * already shown (the following starts after it).
 */
async function resumeDistributed(
  options: DistributedRunOptions,
  renderer: Renderer,
  runId: string,
  coordinator: Coordinator,
): Promise<number> {
  let after = 0;
  const run = await coordinator.store.getRun(runId);
  if (!run) {
    throw new UsageError(`no run ${runId} in the database`, {
      code: "unknown_run",
      hint: "list the runs with `reelsmith status`",
    });
  }
  if (options.continuesFrom !== undefined) {
    after = await lastEventId(coordinator, runId);
    renderer.note(`run ${runId} goes on once a worker takes the decision`);
  } else if (run.endedAt) {
    after = await lastEventId(coordinator, runId);
    await resumeRun(coordinator, runId, options.autoApprove ? { autoApprove: true } : {});
  } else {
    // Still running on the workers: resuming it means following it.
    renderer.note(`run ${runId} is still ${run.status}; following it`);
  }
  return after;
}

/** Checks the pipeline and its inputs here, then submits the run to the workers: its id and the coordinator it went through. */
async function submitDistributed(
  options: DistributedRunOptions,
  context: CliContext,
  renderer: Renderer,
  open: () => Promise<Coordinator>,
): Promise<{ runId: string; coordinator: Coordinator }> {
  const { connection, profile, service } = await resolveService(options, context);
  addSecret(context, connection.apiKey);
  for (const line of await takeProfileWarnings(context)) context.stderr.write(`${line}\n`);
  const { knownModelCatalogs } = await import("../services/known-model-catalogs.js");
  let catalogs = await knownModelCatalogs(options, context);
  if (!catalogs?.video_models && connection.baseURL) {
    // The service's own list (one free request) gives its video models' limits and
    // prices, which the run's estimate and its budget's reservations use on every worker.
    const listed = await listedVideoModels(context, options);
    if (listed.videoModels) catalogs = { ...catalogs, video_models: listed.videoModels };
    if (listed.note) renderer.note(listed.note);
  }
  const pipeline = await loadValidPipeline(options.pipeline ?? "", context, {
    ...(catalogs ? { catalogs } : {}),
  });
  const inputs = await checkInputs(pipeline, options.inputs ?? {});
  if (profile) {
    renderer.note(
      `checked against ${profile.shown}; its dialect, poll interval and video models travel with the run to the workers (each takes its key from its own environment)`,
    );
  }
  if (!connection.baseURL) {
    throw new UsageError("a run on many machines needs a service that every worker can reach", {
      code: "service_required",
      hint: "pass --base-url (or set REELSMITH_BASE_URL); the built-in simulator lives in one process only",
    });
  }
  const coordinator = await open();
  const submitted = await submitRun(coordinator, {
    pipeline: pipeline.path,
    inputs,
    baseURL: connection.baseURL,
    ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
    ...(options.account ? { account: options.account } : {}),
    artifacts: path.resolve(context.cwd, options.artifacts ?? "runs"),
    // `--max-videos` is the account-wide limit of the video kind's queue.
    ...(await maxVideosSlots(options.maxVideos || undefined)),
    ...(options.maxCredits ? { maxCredits: options.maxCredits } : {}),
    ...(options.requestsPerMinute ? { requestsPerMinute: options.requestsPerMinute } : {}),
    ...(options.accountBudget ? { budget: options.accountBudget } : {}),
    ...(options.cache === false ? { cache: false } : {}),
    ...(options.autoApprove ? { autoApprove: true } : {}),
    ...(options.allowPartial ? { allowPartial: true } : {}),
    ...(service ? { client: workerClientOptions(service.clientOptions) } : {}),
    // The names of the service key's variables (never the key): each worker reads them.
    ...(profile?.loaded.profile.service?.api_key_env?.length
      ? { apiKeyEnv: profile.loaded.profile.service.api_key_env }
      : {}),
    ...(await workerAccounts(service, profile?.loaded.profile, profile?.shown)),
    ...(catalogs ? { catalogs } : {}),
  });
  return { runId: submitted.runId, coordinator };
}

/** The exit code of a followed run's end, with the note on what to do next. */
function exitCodeOf(
  result: Awaited<ReturnType<typeof followRun>>,
  runId: string,
  renderer: Renderer,
): number {
  let code: number;
  if (result.status === "succeeded") code = ExitCode.ok;
  else if (result.status === "cancelled") {
    renderer.note(`cancelled; continue with: reelsmith resume ${runId} --database …`);
    code = ExitCode.interrupted;
  } else if (result.status === "budget_reached") {
    renderer.note(`stopped: ${describeError(result.error)}`);
    renderer.note(`raise the budget and continue with: reelsmith resume ${runId} --database …`);
    code = ExitCode.budget;
  } else if (result.status === "waiting") {
    for (const line of waitingNotes(runId, true)) renderer.note(line);
    code = ExitCode.waiting;
  } else if (result.status === "rejected") {
    renderer.note(`rejected: ${describeError(result.error)}`);
    code = ExitCode.failed;
  } else {
    renderer.note(`error: ${describeError(result.error)}`);
    renderer.note(`retry the rest with: reelsmith resume ${runId} --database …`);
    code = ExitCode.failed;
  }
  return code;
}
