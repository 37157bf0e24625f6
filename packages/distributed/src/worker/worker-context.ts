import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import type { AnyStepKind } from "@reelsmith/runner";
import type { Pool } from "pg";
import type { Logger } from "../database/pool.js";
import type { RunStore } from "../store/run-store.js";
import type { WorkflowWatch } from "../workflows/workflow-watch.js";

/** What the workflows of this process use: one worker per process (DBOS is process-wide). */
export interface WorkerContext {
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

/** The client for a base URL, with this worker's key; one per base URL. */
export function serviceClient(context: WorkerContext, baseURL: string): ReelsmithClient {
  let client = context.clients.get(baseURL);
  if (!client) {
    client = createClient({ baseURL, ...(context.apiKey ? { apiKey: context.apiKey } : {}) });
    context.clients.set(baseURL, client);
  }
  return client;
}
