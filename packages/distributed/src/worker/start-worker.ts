import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { builtInStepKinds, kindsByName, type StepKindSpec } from "@reelsmith/runner/kinds";
import { createPool, type Logger, withReconnect } from "../database/pool.js";
import { migrate } from "../database/schema.js";
import { DEFAULT_STARTUP_DEADLINE_MS } from "../database/schema-lock.js";
import { createRunStore } from "../store/run-store.js";
import { registeredSlotWorkflow } from "../workflows/account-slots.js";
import { registeredApprovalWaitWorkflow } from "../workflows/approval-wait.js";
import { registeredRunWorkflow } from "../workflows/run-workflow.js";
import { applicationVersion } from "../workflows/unit-job.js";
import { registeredUnitWorkflow } from "../workflows/unit-workflow.js";
import { createWorkflowWatch } from "../workflows/workflow-watch.js";
import { startExecutorLiveness } from "./executor-liveness.js";
import { dbosLogger, launchDbos, registerQueues } from "./launch-dbos.js";
import { fenceClock } from "./self-fence.js";
import { setWorkerContext } from "./worker-context.js";
import { markStopped, registerWorker } from "./worker-registry.js";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** PostgreSQL URL shared by every worker and `run` process. */
  databaseUrl: string;
  /** Units (and runs) this worker runs at once (default 8). */
  concurrency?: number;
  /**
   * The service API key this worker uses (default REELSMITH_API_KEY, then the variables the
   * run's profile names in `service.api_key_env`, then OPENAI_API_KEY).
   */
  apiKey?: string;
  /**
   * Where the keys of a run's provider accounts are read (each account names its variables;
   * default: this process's environment).
   */
  env?: Record<string, string | undefined>;
  /** This worker's DBOS executor id (default host-pid-random; unique per process). */
  executorId?: string;
  /** How often queues are polled and runs check their units (default 100 ms). */
  pollIntervalMs?: number;
  /** How often workers look for the work of dead workers (default 1000 ms). */
  recoveryIntervalMs?: number;
  /** How often the worker's heartbeat is recorded (default 5000 ms). */
  heartbeatIntervalMs?: number;
  /**
   * Heartbeats a worker may miss before the others judge it dead and hand its work over
   * (default 3). After a database restart every worker gets this long to come back.
   */
  missedHeartbeats?: number;
  /**
   * Deadline of each wait at start-up: the connection, the schema lock, DBOS's launch
   * (default 120 000 ms). Passing it fails start-up with a DatabaseWaitError naming the wait.
   */
  startupTimeoutMs?: number;
  /** Aborting it while the worker starts ends the start-up (what was started is stopped). */
  signal?: AbortSignal;
  /** Step kinds beyond the built-in ones this worker runs (every worker needs the same). */
  stepKinds?: readonly StepKindSpec<never>[];
  logger?: Logger;
}

/** A running worker. */
export interface Worker {
  readonly executorId: string;
  /** Units (and runs) it runs at once. */
  readonly concurrency: number;
  /** The queues it serves now: runs, local work, and every service account's queues. */
  readonly queues: readonly string[];
  /**
   * Stops taking work, lets running units finish for up to `graceMs` (default 10 s), then
   * leaves the rest PENDING: another worker recovers it (it is marked stopped here).
   */
  stop(options?: { graceMs?: number }): Promise<void>;
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
  const signal = options.signal;
  signal?.throwIfAborted();
  const executorId =
    options.executorId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const concurrency = options.concurrency ?? 8;
  const deadlineMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_DEADLINE_MS;
  // Every wait below has the same deadline and gives up at once when the signal aborts.
  await migrate(options.databaseUrl, {
    dbos: true,
    deadlineMs,
    signal,
    logger,
    applicationName: `reelsmith worker ${executorId}`,
  });
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 5000;
  const graceMs = heartbeatIntervalMs * (options.missedHeartbeats ?? 3);
  // A transaction of this worker left open by a freeze is ended by the server once the
  // worker has fenced itself (half its grace): its claims' locks never hold up a hand-over.
  const pool = createPool(options.databaseUrl, logger, 10, {
    idleInTransactionTimeoutMs: Math.max(1000, graceMs / 2),
  });
  const stopping = new AbortController();
  const dbos = await DBOSClient.create({
    systemDatabaseUrl: options.databaseUrl,
    applicationName: "reelsmith",
    logger: dbosLogger(logger),
  });
  const watch = createWorkflowWatch({ dbos, pollIntervalMs, logger });
  const liveness = startExecutorLiveness({
    pool,
    executorId,
    heartbeatIntervalMs,
    graceMs,
    intervalMs: options.recoveryIntervalMs ?? 1000,
    logger,
  });
  setWorkerContext({
    executorId,
    pool,
    store: createRunStore(pool),
    dbos,
    logger,
    // Else the run's own `apiKeyEnv`, then OPENAI_API_KEY, from `env` (see serviceClient).
    apiKey: options.apiKey ?? process.env.REELSMITH_API_KEY,
    env: options.env ?? process.env,
    clients: new Map(),
    watch,
    stopping: stopping.signal,
    fence: liveness.fence,
    kinds: kindsByName([...builtInStepKinds, ...(options.stepKinds ?? [])]),
  });
  // The registrations happen on import; naming them keeps the imports from being dropped.
  void registeredRunWorkflow;
  void registeredUnitWorkflow;
  void registeredSlotWorkflow;
  void registeredApprovalWaitWorkflow;
  let launched = false;
  const announce = (queues: string[]) =>
    announceWorker(pool, liveness.fence, {
      worker: { executorId, concurrency, queues, graceMs },
      deadlineMs,
      logger,
      signal,
    });
  const release = async (graceMs: number) => {
    stopping.abort();
    // Its heartbeat goes on while its units finish: nobody may take them meanwhile.
    liveness.unwatch();
    if (launched) {
      await DBOS.shutdown({ workflowCompletionTimeoutMS: graceMs }).catch(() => undefined);
    }
    liveness.stop();
    await markStopped(pool, executorId).catch(() => undefined);
    watch.close();
    await dbos.destroy().catch(() => undefined);
    await pool.end().catch(() => undefined);
    setWorkerContext(undefined);
    running = undefined;
  };
  try {
    // Announced, with a first heartbeat, before it takes any work.
    await announce([]);
    signal?.throwIfAborted();
    await launchDbos({
      databaseUrl: options.databaseUrl,
      executorId,
      deadlineMs,
      signal,
      logger,
    }).finally(() => {
      launched = DBOS.isInitialized();
    });
    liveness.watch();
    const queues = await registerQueues({ concurrency, pollIntervalMs });
    await announce(queues);
    signal?.throwIfAborted();
    const worker: Worker = {
      executorId,
      concurrency,
      queues,
      async stop({ graceMs = 10_000 } = {}) {
        await release(graceMs);
      },
    };
    running = worker;
    return worker;
  } catch (error) {
    await release(0);
    throw error;
  }
}

/** Records the worker and its queues (itself a heartbeat), waiting for the database up to the deadline. */
function announceWorker(
  pool: ReturnType<typeof createPool>,
  fence: ReturnType<typeof startExecutorLiveness>["fence"],
  options: {
    worker: { executorId: string; concurrency: number; queues: string[]; graceMs: number };
    deadlineMs: number;
    logger: WorkerOptions["logger"];
    signal: AbortSignal | undefined;
  },
): Promise<void> {
  return withReconnect(
    async () => {
      const sent = fenceClock();
      await registerWorker(pool, {
        ...options.worker,
        host: hostname(),
        pid: process.pid,
        version: applicationVersion,
      });
      fence.renewed(sent);
    },
    { forMs: options.deadlineMs, logger: options.logger, signal: options.signal },
  );
}
