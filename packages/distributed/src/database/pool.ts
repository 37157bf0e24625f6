import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/** What a library user passes to receive diagnostics (this package never prints). */
export interface Logger {
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}

/**
 * A connection pool for reelsmith's tables. Connections that the server drops (a database
 * restart), idle or checked out, are reported to the logger instead of crashing the
 * process; the next query opens a new connection.
 * @example const pool = createPool("postgres://localhost/reelsmith", logger);
 */
export function createPool(
  url: string,
  logger?: Logger,
  max = 10,
  options: {
    /**
     * Ends a session left idle inside a transaction for this long (a frozen worker's), so the
     * row locks it holds do not hold up the others (default: never).
     */
    idleInTransactionTimeoutMs?: number;
  } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
    ...(options.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: Math.round(options.idleInTransactionTimeoutMs) }
      : {}),
  });
  pool.on("error", (error) => logger?.warn?.("database connection lost", { error: error.message }));
  // The pool listens to its idle clients only: a client checked out between two queries (a
  // transaction) whose server goes away would emit an unhandled 'error' and end the process.
  // Its next query fails instead, and the caller retries (withReconnect).
  pool.on("connect", (client) =>
    client.on("error", (error) =>
      logger?.warn?.("database connection lost", { error: error.message }),
    ),
  );
  return pool;
}

/** True for errors that mean "the database went away for a moment": worth a retry. */
export function isConnectionError(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? "");
  const message = String((error as Error)?.message ?? "");
  return (
    [
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "57P01",
      "57P02",
      "57P03",
      "08006",
      "08003",
      "08001",
    ].includes(code) ||
    /Connection terminated|connection.*(closed|ended)|terminating connection|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
      message,
    )
  );
}

/**
 * Runs `action`, retrying while the database is unreachable (a restart), up to `forMs`.
 * @example await withReconnect(() => pool.query("SELECT 1"));
 */
export async function withReconnect<T>(
  action: () => Promise<T>,
  options: { forMs?: number; logger?: Logger | undefined; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const deadline = Date.now() + (options.forMs ?? 120_000);
  let delay = 100;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      return await action();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() > deadline) throw error;
      options.logger?.warn?.("database unreachable, retrying", {
        error: (error as Error).message,
      });
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : {});
      delay = Math.min(delay * 2, 2_000);
    }
  }
}
