import { createHash } from "node:crypto";
import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { createClient, type ReelsmithClient, routeClients } from "@reelsmith/core";
import { providerAccess } from "@reelsmith/core/catalog";
import type { AnyStepKind } from "@reelsmith/runner/kinds";
import type { Pool } from "pg";
import type { Logger } from "../database/pool.js";
import type { RunAccount, RunClientOptions, RunStore } from "../store/run-store.js";
import type { WorkflowWatch } from "../workflows/workflow-watch.js";
import { fenceRequest } from "./claim-guard.js";
import type { SelfFence } from "./self-fence.js";

/** What the workflows of this process use: one worker per process (DBOS is process-wide). */
export interface WorkerContext {
  /** This worker's DBOS executor id (recorded on the journal records its units write). */
  executorId: string;
  pool: Pool;
  store: RunStore;
  /** Enqueues units by their deterministic ids (outside any workflow's own steps). */
  dbos: DBOSClient;
  logger: Logger | undefined;
  /**
   * The service key this worker was given (`--api-key`, else `REELSMITH_API_KEY`; never
   * stored in the database); without one, the run's `apiKeyEnv`, then `OPENAI_API_KEY`, are
   * read from `env`.
   */
  apiKey: string | undefined;
  /** Where this worker reads the keys of a run's provider accounts (its process's environment). */
  env: Record<string, string | undefined>;
  clients: Map<string, ReelsmithClient>;
  /** Waits for units and video slots to change state (one query per interval for all). */
  watch: WorkflowWatch;
  /** Settles when in-flight units should stop waiting (the worker is shutting down). */
  stopping: AbortSignal;
  /** The worker's own fence: nothing paid starts and nothing is written while it is closed. */
  fence: SelfFence;
  /** The step kinds this worker runs (the built-in ones, and any its process adds). */
  kinds: ReadonlyMap<string, AnyStepKind>;
}

let current: WorkerContext | undefined;

/** Sets this process's worker context (startWorker does it before DBOS launches). */
export function setWorkerContext(context: WorkerContext | undefined): void {
  current = context;
}

/** This process's worker context; throws when no worker was started here. */
export function workerContext(): WorkerContext {
  if (!current) throw new Error("no reelsmith worker runs in this process (startWorker first)");
  return current;
}

/**
 * What a run says of its client: how to talk to the service. The models each request is
 * checked against travel with the run's catalogs to its kinds, which give them to each request.
 */
export interface RunClientSettings {
  client?: RunClientOptions;
  /** The profile's other provider accounts, each with the names of its key's variables. */
  accounts?: readonly RunAccount[];
  /** The account of each routed model, by model id. */
  models?: Readonly<Record<string, string>>;
  /** The names of the variables of the service's own key (`service.api_key_env`). */
  apiKeyEnv?: readonly string[];
}

/**
 * The client of a run's service: its base URL, the run's client options (dialect,
 * idempotency, listing, poll interval) and video catalog, and this worker's own key (never
 * stored). With provider accounts, one client over them all that routes each model to its
 * account, each account's key read from this worker's own environment. One per base URL and
 * settings, shared by the runs that agree on them.
 * @example const client = serviceClient(context, run.baseURL, run.options);
 */
export function serviceClient(
  context: WorkerContext,
  baseURL: string,
  settings: RunClientSettings = {},
): ReelsmithClient {
  const options = { ...settings.client };
  const routing = { accounts: settings.accounts ?? [], models: settings.models ?? {} };
  const keyNames = settings.apiKeyEnv ?? [];
  const id = `${baseURL} ${createHash("sha256")
    .update(JSON.stringify([options, routing, keyNames]))
    .digest("hex")}`;
  let client = context.clients.get(id);
  if (!client) {
    // The key this worker was given, else the run's own variables, as a local run reads them.
    const apiKey =
      context.apiKey ??
      keyFromEnv(options.dialect, keyNames, context.env) ??
      context.env.OPENAI_API_KEY;
    const fallback = createClient({
      ...options,
      baseURL,
      ...(apiKey ? { apiKey } : {}),
      // A unit's requests other than reads leave only while its claim is current.
      beforeRequest: fenceRequest,
    });
    client =
      routing.accounts.length === 0
        ? fallback
        : routeClients({
            fallback,
            accounts: Object.fromEntries(
              routing.accounts.map((account) => [account.name, accountClient(context, account)]),
            ),
            models: new Map(Object.entries(routing.models)),
          });
    context.clients.set(id, client);
  }
  return client;
}

/** A worker without an account's key: the unit that needs that account fails, saying which variable to set. */
export class MissingAccountKeyError extends Error {
  readonly code = "no_api_key";
  constructor(account: RunAccount, variables: readonly string[], parts: boolean) {
    super(
      `this worker has no key for the provider account "${account.name}" (${account.baseURL}): set ${
        parts ? `each of ${variables.join(" and ")}` : variables.join(" or ")
      } in the environment of every worker, then resume the run`,
    );
    this.name = "MissingAccountKeyError";
  }
}

/**
 * The key of an account from this worker's environment: the first of its variables that is
 * set, or, for a provider whose key has parts, every variable's value joined by `:`.
 */
function accountKey(
  account: RunAccount,
  env: Record<string, string | undefined>,
): string | undefined {
  return keyFromEnv(account.client.dialect, account.apiKeyEnv, env);
}

/**
 * A key from the environment by the names of its variables: the first that is set, or, for
 * a provider whose key has parts (Kling's access and secret keys), every value joined by `:`.
 */
function keyFromEnv(
  dialect: RunClientOptions["dialect"],
  names: readonly string[],
  env: Record<string, string | undefined>,
): string | undefined {
  const parts = providerAccess(dialect ?? "reference").keyParts;
  if (parts && parts.length > 1) {
    const values = names.map((name) => env[name]);
    return names.length === parts.length && values.every(Boolean) ? values.join(":") : undefined;
  }
  const found = names.find((name) => Boolean(env[name]));
  return found ? env[found] : undefined;
}

/** One provider account's client; without its key here, each of its requests fails before it leaves. */
function accountClient(context: WorkerContext, account: RunAccount): ReelsmithClient {
  const apiKey = accountKey(account, context.env);
  const parts = (providerAccess(account.client.dialect ?? "reference").keyParts?.length ?? 1) > 1;
  return createClient({
    ...account.client,
    baseURL: account.baseURL,
    ...(apiKey ? { apiKey } : {}),
    beforeRequest: apiKey
      ? fenceRequest
      : () => {
          throw new MissingAccountKeyError(account, account.apiKeyEnv, parts);
        },
  });
}
