import { setTimeout as sleep } from "node:timers/promises";
import { DBOS, type DLogger } from "@dbos-inc/dbos-sdk";
import type { Logger } from "../database/pool.js";
import { DatabaseWaitError } from "../errors/database-wait-error.js";
import { queueNames } from "../service.js";
import { applicationVersion } from "../workflows/unit-job.js";

/**
 * DBOS's logger for a worker: its info and debug dropped, its warnings about queue polling
 * under contention told as info (not the user's concern), the rest as warnings and errors.
 * @example DBOSClient.create({ systemDatabaseUrl, applicationName: "reelsmith", logger: dbosLogger(logger) });
 */
export function dbosLogger(logger: Logger | undefined): DLogger {
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

/** Where and how DBOS is launched in a worker's process. */
export interface DbosLaunch {
  databaseUrl: string;
  executorId: string;
  /** Deadline of the launch (ms): passing it throws DatabaseWaitError. */
  deadlineMs: number;
  /** Aborting it ends the wait (the launch is given a short grace to settle). */
  signal: AbortSignal | undefined;
  logger: Logger | undefined;
}

/**
 * Configures and launches DBOS Transact in this process, as this worker's executor (the
 * schema was brought up to date before, under the schema lock).
 * @example await launchDbos({ databaseUrl, executorId, deadlineMs: 120_000, signal, logger });
 */
export async function launchDbos(given: DbosLaunch): Promise<void> {
  DBOS.setConfig({
    name: "reelsmith",
    systemDatabaseUrl: given.databaseUrl,
    executorID: given.executorId,
    applicationVersion,
    runAdminServer: false,
    // The schema was brought up to date above, under the schema lock.
    runMigrations: false,
    logger: dbosLogger(given.logger),
    logLevel: "warn",
  });
  await untilLaunched(DBOS.launch(), {
    deadlineMs: given.deadlineMs,
    signal: given.signal,
    graceMs: given.deadlineMs,
  });
}

/**
 * Registers the worker's own queues (runs and local work, `concurrency` at once; the waits at
 * gates, any number) and returns every reelsmith queue it serves, sorted.
 * @example const queues = await registerQueues({ concurrency: 8, pollIntervalMs: 100 });
 */
export async function registerQueues(given: {
  concurrency: number;
  pollIntervalMs: number;
}): Promise<string[]> {
  const { concurrency, pollIntervalMs } = given;
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
  // Waits for decisions at gates: any number at once (a wait holds nothing while it waits).
  await DBOS.registerQueue(queueNames.approvals, {
    minPollingIntervalMs: pollIntervalMs,
    onConflict: "always_update",
  });
  return (await DBOS.listQueues("reelsmith")).map((queue) => queue.name).sort();
}

/**
 * Waits for DBOS's launch, up to the start-up deadline. When the signal aborts first, the
 * launch is given no more than its grace to settle (so that it can be shut down cleanly) and
 * the abort is thrown; DBOS's launch itself cannot be interrupted.
 */
async function untilLaunched(
  launch: Promise<void>,
  options: { deadlineMs: number; signal: AbortSignal | undefined; graceMs: number },
): Promise<void> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseWaitError("DBOS to launch", Date.now() - started)),
      options.deadlineMs,
    );
  });
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([launch, deadline, aborted]);
  } catch (error) {
    // Let a launch that is almost done finish, so that shutting it down leaves nothing behind.
    await Promise.race([launch.catch(() => undefined), sleep(Math.min(options.graceMs, 2000))]);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
