import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { DBOS, DBOSClient, type DLogger } from "@dbos-inc/dbos-sdk";
import { createPool, type Logger } from "../database/pool.js";
import { migrate } from "../database/schema.js";
import { queueNames } from "../service.js";
import { createRunStore } from "../store/run-store.js";
import { registeredRunWorkflow } from "../workflows/run-workflow.js";
import { applicationVersion } from "../workflows/unit-job.js";
import { registeredUnitWorkflow } from "../workflows/unit-workflow.js";
import { registeredVideoSlotWorkflow } from "../workflows/video-slot.js";
import { createWorkflowWatch } from "../workflows/workflow-watch.js";
import { startExecutorLiveness } from "./executor-liveness.js";
import { setWorkerContext } from "./worker-context.js";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** PostgreSQL URL shared by every worker and `run` process. */
  databaseUrl: string;
  /** Units (and runs) this worker runs at once (default 8). */
  concurrency?: number;
  /** The service API key this worker uses (default REELSMITH_API_KEY, then OPENAI_API_KEY). */
  apiKey?: string;
  /** This worker's DBOS executor id (default host-pid-random; unique per process). */
  executorId?: string;
  /** How often queues are polled and runs check their units (default 100 ms). */
  pollIntervalMs?: number;
  /** How often workers look for the work of dead workers (default 1000 ms). */
  recoveryIntervalMs?: number;
  logger?: Logger;
}

/** A running worker. */
export interface Worker {
  readonly executorId: string;
  /**
   * Stops taking work, lets running units finish for up to `graceMs` (default 10 s), then
   * leaves the rest PENDING: another worker recovers it (its lock is released here).
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

function dbosLogger(logger: Logger | undefined): DLogger {
  const text = (entry: unknown) => (entry instanceof Error ? entry.message : String(entry));
  return {
    info: () => undefined,
    debug: () => undefined,
    // DBOS tunes its queue polling under contention and says so: not the user's concern.
    warn: (entry) =>
      /contention|polling interval/i.test(text(entry))
        ? logger?.info?.(`dbos: ${text(entry)}`)
        : logger?.warn?.(`dbos: ${text(entry)}`),
    error: (entry) => logger?.error?.(`dbos: ${text(entry)}`),
  };
}

let running: Worker | undefined;

/**
 * Starts this process's worker: DBOS Transact on the database (workflows, queues and their
 * checkpoints in schema `dbos`, reelsmith's runs in schema `reelsmith`), dispatching the run
 * queue, the local-work queue and every service's video and chat queues. One per process.
 * @example const worker = await startWorker({ databaseUrl: process.env.REELSMITH_DATABASE_URL! });
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  if (running) throw new Error("a reelsmith worker already runs in this process");
  const logger = options.logger;
  const executorId =
    options.executorId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const concurrency = options.concurrency ?? 8;
  const pool = createPool(options.databaseUrl, logger);
  const stopping = new AbortController();
  const dbos = await DBOSClient.create({
    systemDatabaseUrl: options.databaseUrl,
    applicationName: "reelsmith",
    logger: dbosLogger(logger),
  });
  const watch = createWorkflowWatch({ dbos, pollIntervalMs, logger });
  setWorkerContext({
    pool,
    store: createRunStore(pool),
    dbos,
    logger,
    apiKey: options.apiKey ?? process.env.REELSMITH_API_KEY ?? process.env.OPENAI_API_KEY,
    clients: new Map(),
    watch,
    stopping: stopping.signal,
  });
  // The registrations happen on import; naming them keeps the imports from being dropped.
  void registeredRunWorkflow;
  void registeredUnitWorkflow;
  void registeredVideoSlotWorkflow;
  // Hold this executor's liveness lock before taking any work.
  const liveness = await startExecutorLiveness({
    url: options.databaseUrl,
    executorId,
    intervalMs: options.recoveryIntervalMs ?? 1000,
    logger,
  });
  DBOS.setConfig({
    name: "reelsmith",
    systemDatabaseUrl: options.databaseUrl,
    executorID: executorId,
    applicationVersion,
    runAdminServer: false,
    logger: dbosLogger(logger),
    logLevel: "warn",
  });
  // Launched under the migration lock: workers that start together must not race on DDL.
  await migrate(pool, { during: () => DBOS.launch() });
  liveness.watch();
  await DBOS.registerQueue(queueNames.runs, {
    workerConcurrency: concurrency,
    minPollingIntervalMs: pollIntervalMs,
    onConflict: "always_update",
  });
  await DBOS.registerQueue(queueNames.local, {
    workerConcurrency: concurrency,
    minPollingIntervalMs: pollIntervalMs,
    onConflict: "always_update",
  });
  const worker: Worker = {
    executorId,
    async stop({ graceMs = 10_000 } = {}) {
      stopping.abort();
      await DBOS.shutdown({ workflowCompletionTimeoutMS: graceMs }).catch(() => undefined);
      await liveness.stop();
      watch.close();
      await dbos.destroy().catch(() => undefined);
      await pool.end().catch(() => undefined);
      setWorkerContext(undefined);
      running = undefined;
    },
  };
  running = worker;
  return worker;
}
