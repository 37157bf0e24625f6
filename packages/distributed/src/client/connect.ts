import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { Pool } from "pg";
import { createPool, type Logger } from "../database/pool.js";
import { migrate } from "../database/schema.js";
import { createRunStore, type RunStore } from "../store/run-store.js";

/** A connection to the shared database for `run`, `status`, `cancel` (no worker). */
export interface Coordinator {
  pool: Pool;
  dbos: DBOSClient;
  store: RunStore;
  close(): Promise<void>;
}

/**
 * Connects to the shared database (creating reelsmith's tables when missing) without
 * running any work: enqueuing, following and cancelling runs go through here.
 * @example const coordinator = await connect("postgres://…"); … await coordinator.close();
 */
export async function connect(
  databaseUrl: string,
  logger?: Logger,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Coordinator> {
  // Each wait here (connection, schema lock) has a deadline and names what it waited for.
  await migrate(databaseUrl, {
    dbos: true,
    logger,
    ...(options.timeoutMs ? { deadlineMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    applicationName: "reelsmith client",
  });
  const pool = createPool(databaseUrl, logger, 4);
  try {
    const dbos = await DBOSClient.create({
      systemDatabaseUrl: databaseUrl,
      applicationName: "reelsmith",
      logger: {
        info: () => undefined,
        debug: () => undefined,
        warn: (entry) => logger?.warn?.(`dbos: ${String(entry)}`),
        error: (entry) => logger?.error?.(`dbos: ${String(entry)}`),
      },
    });
    return {
      pool,
      dbos,
      store: createRunStore(pool),
      async close() {
        await dbos.destroy().catch(() => undefined);
        await pool.end().catch(() => undefined);
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
