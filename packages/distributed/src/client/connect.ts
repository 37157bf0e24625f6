import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { RunnerError } from "@reelsmith/runner";
import type { Pool } from "pg";
import { createPool, type Logger } from "../database/pool.js";
import { hasTables, migrate, SCHEMA } from "../database/schema.js";
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
 * running any work: enqueuing, following and cancelling runs go through here. With
 * `readOnly` (a command that only reads, such as `status`) no schema is made or changed, and
 * a database without reelsmith's tables yet (no run queued, no worker started on it) is
 * refused with a `RunnerError` of code `database_empty`.
 * @example const coordinator = await connect("postgres://…"); … await coordinator.close();
 */
export async function connect(
  databaseUrl: string,
  logger?: Logger,
  options: { timeoutMs?: number; signal?: AbortSignal; readOnly?: boolean } = {},
): Promise<Coordinator> {
  // Each wait here (connection, schema lock) has a deadline and names what it waited for.
  if (!options.readOnly)
    await migrate(databaseUrl, {
      dbos: true,
      logger,
      ...(options.timeoutMs ? { deadlineMs: options.timeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      applicationName: "reelsmith client",
    });
  const pool = createPool(databaseUrl, logger, 4);
  try {
    if (options.readOnly) await requireTables(pool, databaseUrl, options);
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

/**
 * Waits (up to `timeoutMs`) for the database to answer, and refuses one that has no
 * reelsmith tables yet, reading only.
 */
async function requireTables(
  pool: Pool,
  databaseUrl: string,
  options: { timeoutMs?: number; signal?: AbortSignal },
): Promise<void> {
  const tables = [`${SCHEMA}.runs`, "dbos.workflow_status"];
  const wait = { forMs: options.timeoutMs, signal: options.signal };
  if (!(await hasTables(pool, databaseUrl, tables, wait)))
    throw new RunnerError<"database_empty">(
      "database_empty",
      "the database has no reelsmith tables yet: no run was queued and no worker started on it",
    );
}
