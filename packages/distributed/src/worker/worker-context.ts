import { createHash } from "node:crypto";
import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import type { AnyStepKind } from "@reelsmith/runner/kinds";
import type { Pool } from "pg";
import type { Logger } from "../database/pool.js";
import type { RunClientOptions, RunStore } from "../store/run-store.js";
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
  /** The service key this worker sends with requests (never stored in the database). */
  apiKey: string | undefined;
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
}

/**
 * The client of a run's service: its base URL, the run's client options (dialect,
 * idempotency, listing, poll interval) and video catalog, and this worker's own key (never
 * stored). One per base URL and settings, shared by the runs that agree on them.
 * @example const client = serviceClient(context, run.baseURL, run.options);
 */
export function serviceClient(
  context: WorkerContext,
  baseURL: string,
  settings: RunClientSettings = {},
): ReelsmithClient {
  const options = { ...settings.client };
  const id = `${baseURL} ${createHash("sha256").update(JSON.stringify(options)).digest("hex")}`;
  let client = context.clients.get(id);
  if (!client) {
    client = createClient({
      ...options,
      baseURL,
      ...(context.apiKey ? { apiKey: context.apiKey } : {}),
      // A unit's requests other than reads leave only while its claim is current.
      beforeRequest: fenceRequest,
    });
    context.clients.set(id, client);
  }
  return client;
}
