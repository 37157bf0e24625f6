import { DBOS } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import type { Logger } from "../database/pool.js";

/** The advisory lock space of workers' liveness locks (one lock per executor id). */
export const LIVENESS_LOCK_SPACE = "reelsmith.executor";

/**
 * Tells live workers from dead ones through PostgreSQL itself: each worker holds a session
 * advisory lock named after its DBOS executor id on a connection of its own, and the server
 * drops the lock the moment that session ends (the process died, or its machine left the
 * network and TCP keepalive gave up). No lease, no heartbeat table, no clock.
 *
 * Every `intervalMs` each worker looks at the executors that DBOS says hold PENDING workflows;
 * one whose lock it can take is gone, and its workflows are handed to DBOS recovery: they
 * are re-enqueued on their own queues (`DBOS.resumeWorkflow`), and whichever worker dequeues
 * one continues it from its checkpoints.
 * @example const liveness = await startExecutorLiveness({ url, executorId, intervalMs, logger }); liveness.watch();
 */
export async function startExecutorLiveness(options: {
  url: string;
  executorId: string;
  intervalMs: number;
  logger?: Logger | undefined;
}) {
  const { executorId, logger } = options;
  let stopped = false;
  let own: pg.Client | undefined;
  let probe: pg.Client | undefined;
  const connect = async (purpose: string): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: options.url, keepAlive: true });
    client.on("error", (error) => {
      logger?.warn?.(`liveness connection (${purpose}) lost`, { error: error.message });
      if (purpose === "own" && own === client) own = undefined;
      if (purpose === "probe" && probe === client) probe = undefined;
      void client.end().catch(() => undefined);
    });
    await client.connect();
    return client;
  };
  const holdOwnLock = async () => {
    if (own) return;
    const client = await connect("own");
    await client.query("SELECT pg_advisory_lock(hashtext($1), hashtext($2))", [
      LIVENESS_LOCK_SPACE,
      executorId,
    ]);
    own = client;
  };
  const recoverDead = async () => {
    probe ??= await connect("probe");
    const pending = await DBOS.listWorkflows({
      status: "PENDING",
      loadInput: false,
      loadOutput: false,
    });
    const executors = new Set<string>();
    for (const status of pending) {
      if (status.executorId && status.executorId !== executorId) executors.add(status.executorId);
    }
    for (const other of executors) {
      const taken = await probe.query<{ free: boolean }>(
        "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS free",
        [LIVENESS_LOCK_SPACE, other],
      );
      if (!taken.rows[0]?.free) continue;
      try {
        const orphans = pending.filter((status) => status.executorId === other);
        logger?.warn?.("recovering the workflows of a stopped worker", {
          executor: other,
          workflows: orphans.length,
        });
        for (const orphan of orphans) {
          await DBOS.resumeWorkflow(orphan.workflowID, {
            ...(orphan.queueName ? { queueName: orphan.queueName } : {}),
          });
        }
      } finally {
        await probe.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", [
          LIVENESS_LOCK_SPACE,
          other,
        ]);
      }
    }
  };
  await holdOwnLock();
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await holdOwnLock();
      await recoverDead();
    } catch (error) {
      logger?.warn?.("liveness check failed, retrying", { error: (error as Error).message });
    }
    if (!stopped) timer = setTimeout(() => void tick(), options.intervalMs);
  };
  return {
    /** Starts looking for dead workers (once DBOS is launched). */
    watch(): void {
      if (!stopped && !timer) timer = setTimeout(() => void tick(), options.intervalMs);
    },
    /** Stops checking and releases this worker's lock (its unfinished work becomes recoverable). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await own?.end().catch(() => undefined);
      await probe?.end().catch(() => undefined);
    },
  };
}
