import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createClient } from "@reelsmith/core";
import { estimateRun } from "@reelsmith/runner";
import { accountRouting } from "@reelsmith/runner/cache";
import { accountQueuesOf, loadForRun, runInputs } from "@reelsmith/runner/internal";
import {
  type AnyStepKind,
  builtInStepKinds,
  kindsByName,
  type StepKindSpec,
} from "@reelsmith/runner/kinds";
import { budgetLeft, setBudget } from "../budget/database-budget.js";
import { assertEstimateWithin } from "../budget/run-estimate.js";
import { databaseRunCache } from "../cache/database-run-cache.js";
import { budgetScopes, queueNames, serviceAccount } from "../service.js";
import type { RunAccount, RunClientOptions } from "../store/run-store.js";
import { applicationVersion, runWorkflowId, workflowNames } from "../workflows/unit-job.js";
import { configureService, type ServiceLimits } from "./configure-service.js";
import type { Coordinator } from "./connect.js";

/** What `submitRun` needs. */
export interface SubmitRunOptions extends ServiceLimits {
  /** A pipeline file path or a pipeline object. */
  pipeline: string | object;
  inputs?: Record<string, unknown>;
  /** The service's base URL (workers call it; the built-in simulator of one process cannot serve many). */
  baseURL: string;
  /** Used only to name the account when `account` is not given; never stored. */
  apiKey?: string;
  account?: string;
  /** The directory all workers share: each run's directory and the cache go there. */
  artifacts: string;
  maxCredits?: number;
  cache?: boolean;
  resubmitLostJobs?: boolean;
  /** Approve every gate (`approve:` step) the run reaches, by "auto" (unattended runs). */
  autoApprove?: boolean;
  /** Let a fan-out the budget cannot wholly pay for make what fits (else it stops before its first unit). */
  allowPartial?: boolean;
  /** Step kinds beyond the built-in ones the pipeline uses (its workers must run them too). */
  stepKinds?: readonly StepKindSpec<never>[];
  /**
   * How workers talk to the service (a provider profile's dialect, idempotency, listing, poll
   * interval): stored with the run, so every worker builds the same client.
   */
  client?: RunClientOptions;
  /**
   * The names of the variables of the service's key (a profile's `service.api_key_env`):
   * stored with the run, never a key; each worker reads them from its own environment.
   */
  apiKeyEnv?: readonly string[];
  /**
   * The profile's other provider accounts (`providers:`): where each is, how to talk to it,
   * the names of its key's variables (each worker reads the key from its own environment)
   * and its job limit, shared by every worker. Stored with the run, never a key.
   */
  accounts?: readonly Omit<RunAccount, "key">[];
  /** The account of each routed model, by model id (a model not named goes to `baseURL`). */
  models?: Readonly<Record<string, string>>;
  /**
   * The model catalogs (a provider profile's, plain data), by its section name (`video_models`,
   * `image_models`, …): the pipeline is checked and priced against them here, and every
   * worker checks each request against them before sending it.
   */
  catalogs?: Readonly<Record<string, readonly { id: string }[]>>;
  /**
   * How deep the run is among sub-pipelines (default 0: a run of its own). Its chat tools'
   * sub-pipelines run one level deeper, and are refused past the runner's MAX_SUB_PIPELINE_DEPTH.
   */
  depth?: number;
  /**
   * The run's id, chosen by the caller (a batch names its rows' runs before it journals
   * them, so that a resumed batch finds them); default: made of the time and the name.
   * Refused when the database already holds a run of that id.
   */
  runId?: string;
  /**
   * A budget shared with other runs (a batch's): its scope and maximum (set here; null
   * clears it). Every reservation of the run is checked against it too, on every worker.
   */
  sharedBudget?: { scope: string; maxCredits: number | null };
}

/** A run as enqueued. */
export interface SubmittedRun {
  runId: string;
  runDir: string;
  service: string;
}

function timestamp(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
}

/** The client options a run stores: only those workers use, only those given. */
function runClientOptions(given: RunClientOptions | undefined): RunClientOptions {
  const options: RunClientOptions = {};
  if (given?.dialect !== undefined) options.dialect = given.dialect;
  if (given?.honoursIdempotencyKeys !== undefined)
    options.honoursIdempotencyKeys = given.honoursIdempotencyKeys;
  if (given?.listsJobs !== undefined) options.listsJobs = given.listsJobs;
  if (given?.pollIntervalMs !== undefined) options.pollIntervalMs = given.pollIntervalMs;
  return options;
}

/**
 * The provider accounts a run stores, each keyed by its base URL and name: only the options
 * workers use, each account's client built once here (bad options fail the submission), and a
 * model routed to an account the list does not hold refused.
 */
function runAccounts(
  given: SubmitRunOptions["accounts"],
  models: SubmitRunOptions["models"],
): RunAccount[] {
  const accounts = (given ?? []).map((account): RunAccount => {
    const client = runClientOptions(account.client);
    createClient({ baseURL: account.baseURL, ...client, apiKey: "-" });
    if (
      account.maxConcurrentJobs !== undefined &&
      !(Number.isInteger(account.maxConcurrentJobs) && account.maxConcurrentJobs > 0)
    ) {
      throw new TypeError(
        `Expected the \`maxConcurrentJobs\` of account "${account.name}" to be a whole number from 1, got ${account.maxConcurrentJobs}`,
      );
    }
    return {
      name: account.name,
      baseURL: serviceAccount(account.baseURL, { account: account.name }).baseURL,
      client,
      apiKeyEnv: [...account.apiKeyEnv],
      ...(account.maxConcurrentJobs === undefined
        ? {}
        : { maxConcurrentJobs: account.maxConcurrentJobs }),
      // Apart from any service account's own queues (`--account` names those).
      key: serviceAccount(account.baseURL, { account: `providers.${account.name}` }).key,
    };
  });
  const names = new Set(accounts.map((account) => account.name));
  for (const [model, name] of Object.entries(models ?? {})) {
    if (!names.has(name))
      throw new TypeError(
        `Expected the account of model "${model}" among the run's accounts (${[...names].join(", ") || "none"}), got "${name}"`,
      );
  }
  return accounts;
}

/**
 * The slot queues of each account with a job limit, one per account queue the kinds declare
 * (their `accountQueue`), each's global concurrency that limit: every worker's units of the
 * account's models take their slots there, whatever run they belong to.
 */
async function registerAccountSlots(
  coordinator: Coordinator,
  accounts: readonly RunAccount[],
  kinds: Iterable<AnyStepKind>,
): Promise<void> {
  const held = accountQueuesOf(kinds);
  for (const account of accounts) {
    if (account.maxConcurrentJobs === undefined) continue;
    for (const queue of held) {
      await coordinator.dbos.registerQueue(queueNames.slots(account.key, queue), {
        globalConcurrency: account.maxConcurrentJobs,
        minPollingIntervalMs: 100,
        onConflict: "always_update",
        applicationName: "reelsmith",
      });
    }
  }
}

/**
 * Validates a pipeline here (every static check, with file:line:column, against
 * `catalogs` when given, before anything is sent or stored), estimates its cost from the
 * catalogs' prices as a local run does, stores the run with how its workers build their
 * client (`client`; never the key) and its catalogs, sets the service account's limits, and
 * enqueues the run's workflow for the workers. Throws the runner's load errors for an
 * invalid pipeline, and its BudgetEstimateError (code `budget_exceeded_by_estimate`) when
 * the estimate's certain part is over `maxCredits` (or the pipeline's `max_credits`) or over
 * what the service account's budget has left: then nothing is stored or sent.
 * @example const { runId } = await submitRun(coordinator, { pipeline: "storyboard.yaml", baseURL, artifacts: "/mnt/reels" });
 */
export async function submitRun(
  coordinator: Coordinator,
  options: SubmitRunOptions,
): Promise<SubmittedRun> {
  if (options.depth !== undefined && !(Number.isInteger(options.depth) && options.depth >= 0)) {
    throw new TypeError(
      `Expected \`depth\` to be a whole number from 0 and up (how deep the run is among sub-pipelines), got ${options.depth}`,
    );
  }
  const catalogs = options.catalogs;
  const pipeline = await loadForRun(
    typeof options.pipeline === "string" ? resolve(options.pipeline) : options.pipeline,
    {
      validate: true,
      ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
      ...(catalogs ? { catalogs } : {}),
      // The one model check, with the run's given inputs (else their defaults).
      models: { inputs: options.inputs ?? {} },
    },
  );
  const client = runClientOptions(options.client);
  // The client every worker will build, built once here: bad options fail the submission.
  createClient({ baseURL: options.baseURL, ...client, apiKey: "-" });
  const accounts = runAccounts(options.accounts, options.models);
  const inputs = runInputs(pipeline, options.inputs ?? {}, true);
  const service = serviceAccount(options.baseURL, {
    ...(options.account ? { account: options.account } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
  // What the run is expected to cost, from the catalog's prices: refused here, before it is
  // stored or anything is sent, when its certain part is over its budget or the account's.
  // Units the shared cache holds cost nothing (the workers would be served them).
  const estimate = await estimateRun(pipeline, {
    inputs,
    ...(catalogs ? { catalogs } : {}),
    stepKinds: options.stepKinds,
    ...(options.cache === false
      ? {}
      : {
          cache: databaseRunCache(
            coordinator.pool,
            options.baseURL,
            resolve(options.artifacts),
            accountRouting(accounts, options.models ?? {}),
          ),
        }),
  });
  assertEstimateWithin(estimate, {
    maxCredits: options.maxCredits ?? pipeline.spec.max_credits,
    account: await budgetLeft(coordinator.pool, budgetScopes.account(service.key), options.budget),
    allowPartial: options.allowPartial,
  });
  const name = pipeline.spec.name ?? "run";
  const runId =
    options.runId ??
    `${timestamp()}-${name.replace(/[^A-Za-z0-9_.-]+/g, "-")}-${randomBytes(3).toString("hex")}`;
  if (!/^[A-Za-z0-9_.-]+$/.test(runId))
    throw new TypeError(
      `Expected \`runId\` made of letters, digits, ".", "_" and "-" (it names a directory), got "${runId}"`,
    );
  if (options.runId && (await coordinator.store.getRun(runId)))
    throw new Error(`the database already holds a run ${runId}: resume it instead`);
  if (options.sharedBudget)
    await setBudget(coordinator.pool, options.sharedBudget.scope, options.sharedBudget.maxCredits);
  const runDir = resolve(options.artifacts, runId);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, "pipeline.yaml"), pipeline.source);
  const kinds = [...kindsByName([...builtInStepKinds, ...(options.stepKinds ?? [])]).values()];
  await configureService(coordinator.pool, coordinator.dbos, service, options, kinds);
  await registerAccountSlots(coordinator, accounts, kinds);
  await coordinator.store.insertRun({
    runId,
    name,
    pipelinePath: pipeline.path,
    pipelineSource: pipeline.source,
    pipelineHash: pipeline.hash,
    inputs,
    options: {
      ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
      ...(options.cache === undefined ? {} : { cache: options.cache }),
      ...(options.resubmitLostJobs ? { resubmitLostJobs: true } : {}),
      ...(options.autoApprove ? { autoApprove: true } : {}),
      ...(options.allowPartial ? { allowPartial: true } : {}),
      ...(options.account ? { account: options.account } : {}),
      ...(Object.keys(client).length > 0 ? { client } : {}),
      ...(options.apiKeyEnv?.length ? { apiKeyEnv: [...options.apiKeyEnv] } : {}),
      ...(accounts.length > 0 ? { accounts, models: { ...options.models } } : {}),
      ...(catalogs ? { catalogs: structuredClone(catalogs) } : {}),
      ...(options.depth ? { depth: options.depth } : {}),
      ...(options.sharedBudget ? { sharedScope: options.sharedBudget.scope } : {}),
    },
    service: service.key,
    baseURL: service.baseURL,
    runDir,
  });
  await coordinator.dbos.enqueue(
    {
      queueName: queueNames.runs,
      workflowName: workflowNames.run,
      workflowID: runWorkflowId(runId, 1),
      appVersion: applicationVersion,
    },
    runId,
    1,
  );
  return { runId, runDir, service: service.key };
}

/**
 * Enqueues a stopped or failed run again (`reelsmith resume RUN_ID --database …`): finished
 * steps and items are reused from its journal, journaled video jobs re-attached, decided
 * gates go on; `autoApprove` approves its gates from now on.
 * @example await resumeRun(coordinator, "20260101-120000-storyboard-3f2a1b");
 */
export async function resumeRun(
  coordinator: Coordinator,
  runId: string,
  options: { autoApprove?: boolean } = {},
): Promise<number> {
  const run = await coordinator.store.getRun(runId);
  if (!run) throw new Error(`no run ${runId} in the database (see \`reelsmith status\`)`);
  if (!run.endedAt)
    throw new Error(`run ${runId} is still ${run.status}; resume it once it has ended`);
  if (options.autoApprove && !run.options.autoApprove)
    await coordinator.store.setOptions(runId, { ...run.options, autoApprove: true });
  const attempt = await coordinator.store.nextAttempt(runId);
  await coordinator.dbos.enqueue(
    {
      queueName: queueNames.runs,
      workflowName: workflowNames.run,
      workflowID: runWorkflowId(runId, attempt),
      appVersion: applicationVersion,
    },
    runId,
    attempt,
  );
  return attempt;
}
