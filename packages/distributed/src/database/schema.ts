import { migrateSystemDatabase } from "@dbos-inc/dbos-sdk/internal/system_database";
import pg from "pg";
import { DatabaseWaitError } from "../errors/database-wait-error.js";
import { isConnectionError, type Logger, withReconnect } from "./pool.js";
import { DEFAULT_STARTUP_DEADLINE_MS, withSchemaLock } from "./schema-lock.js";

/** The schema that holds reelsmith's own tables (DBOS keeps its tables in `dbos`). */
export const SCHEMA = "reelsmith";

const statements = [
  `CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`,
  // One row per run: what to run and how it ended.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.runs (
    run_id text PRIMARY KEY,
    name text NOT NULL,
    pipeline_path text NOT NULL,
    pipeline_source text NOT NULL,
    pipeline_hash text NOT NULL,
    inputs jsonb NOT NULL,
    options jsonb NOT NULL,
    service text NOT NULL,
    base_url text NOT NULL,
    run_dir text NOT NULL,
    attempt integer NOT NULL DEFAULT 1,
    status text NOT NULL,
    cancel_requested boolean NOT NULL DEFAULT false,
    outputs jsonb,
    totals jsonb,
    error jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz
  )`,
  // The run's journal: the same records the file journal holds, in order.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.journal (
    id bigserial PRIMARY KEY,
    run_id text NOT NULL,
    record jsonb NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS journal_run ON ${SCHEMA}.journal (run_id, id)`,
  // The run's events, for whoever follows the run (the same events a local run emits).
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.events (
    id bigserial PRIMARY KEY,
    run_id text NOT NULL,
    event jsonb NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS events_run ON ${SCHEMA}.events (run_id, id)`,
  // Budgets: one per run (its max_credits) and one per service account.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.budgets (
    scope text PRIMARY KEY,
    max_credits bigint,
    spent bigint NOT NULL DEFAULT 0,
    reserved bigint NOT NULL DEFAULT 0
  )`,
  // A reservation per paid submission, keyed by its idempotency key.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.reservations (
    key text PRIMARY KEY,
    run_id text NOT NULL,
    scopes text[] NOT NULL,
    estimate bigint NOT NULL,
    credits bigint,
    state text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS reservations_run ON ${SCHEMA}.reservations (run_id)`,
  // Video prices learnt from completed jobs, for models whose catalog gives none: one row per
  // service, model, size and length (empty when the request left it to the model). `probe`
  // is the reservation key of the job sent alone to learn a price not known yet.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.video_prices (
    service text NOT NULL,
    model text NOT NULL,
    size text NOT NULL,
    seconds text NOT NULL,
    credits bigint,
    probe text,
    learnt_at timestamptz,
    PRIMARY KEY (service, model, size, seconds)
  )`,
  // Services (base URL + account): the account-wide limits, set in one place.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.services (
    service text PRIMARY KEY,
    base_url text NOT NULL,
    account text NOT NULL,
    max_videos integer,
    requests_per_minute integer,
    worker_concurrency integer,
    budget bigint,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // The result cache's entries (key → outputs and the blobs' sha256); the clips' bytes are
  // files in the artifacts directory's .cache/blobs.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.cache_entries (
    key text PRIMARY KEY,
    kind text NOT NULL,
    step text NOT NULL,
    summary text,
    outputs jsonb NOT NULL,
    files jsonb NOT NULL,
    bytes bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS cache_entries_created ON ${SCHEMA}.cache_entries (created_at)`,
  // What making an entry's result cost (its unit's ledger): saved again when it is served.
  `ALTER TABLE ${SCHEMA}.cache_entries ADD COLUMN IF NOT EXISTS worth jsonb`,
  // Workers as they announced themselves, with their heartbeats.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.workers (
    executor_id text PRIMARY KEY,
    host text NOT NULL,
    pid integer NOT NULL,
    version text NOT NULL,
    concurrency integer NOT NULL,
    queues text[] NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    stopped_at timestamptz
  )`,
  // A worker is dead once it missed its heartbeat for longer than its grace (database clock);
  // handed_over_at: when its unfinished work was last handed to the others.
  `ALTER TABLE ${SCHEMA}.workers ADD COLUMN IF NOT EXISTS grace_ms integer NOT NULL DEFAULT 15000`,
  `ALTER TABLE ${SCHEMA}.workers ADD COLUMN IF NOT EXISTS handed_over_at timestamptz`,
  // Slots per queue a kind declares, e.g. { "video": 4 } (the max_videos of older versions is left unread).
  `ALTER TABLE ${SCHEMA}.services ADD COLUMN IF NOT EXISTS slots jsonb`,
  // A unit's claim: the epoch of the execution that may write for it (its journal, its
  // budget, its requests, its artifacts), raised at each start and at each hand-over; the
  // executor holding it (NULL once handed over).
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.claims (
    unit_id text PRIMARY KEY,
    epoch integer NOT NULL,
    executor_id text,
    claimed_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS claims_executor ON ${SCHEMA}.claims (executor_id)`,
  // Batches whose rows run on the workers: the batch's summary (its rows, their statuses and
  // run ids) as the machine driving it last saved it, for `status BATCH_ID` anywhere.
  `CREATE TABLE IF NOT EXISTS ${SCHEMA}.batches (
    batch_id text PRIMARY KEY,
    dir_name text NOT NULL,
    batch_dir text NOT NULL,
    summary jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS batches_dir_name ON ${SCHEMA}.batches (dir_name)`,
];

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** Also create or update DBOS's system schema (`dbos`) to this DBOS version's. */
  dbos?: boolean;
  /** Give up after this long without the schema lock (default 120 s). */
  deadlineMs?: number;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
  /** Shown in `pg_stat_activity` for the migrating session. */
  applicationName?: string;
}

/**
 * Brings the database's schemas up to this version: DBOS's system schema first (when `dbos`),
 * then reelsmith's tables in one transaction. Idempotent, and safe for any number of
 * processes starting together on a fresh or an existing database: both happen under the
 * schema lock (see {@link withSchemaLock}), which is only ever tried, so no session waits
 * for it inside the server.
 *
 * DBOS's migrations are serialised here because they are not safe to run at once: on a fresh
 * database, six processes migrating together leave five failed with "deadlock detected" or
 * "tuple concurrently updated" (DBOS 5.3.0), and its version bump can leave two rows behind.
 * Workers then launch DBOS with `runMigrations: false`, as DBOS documents for processes whose
 * schema is migrated beforehand.
 * @example await migrate(url, { dbos: true, deadlineMs: 60_000, logger });
 */
export async function migrate(url: string, options: MigrateOptions = {}): Promise<void> {
  const client = await openClient(url, options);
  try {
    await withSchemaLock(
      client,
      async () => {
        if (options.dbos) await migrateSystemDatabase(url, dbosMigrationLogger(options.logger));
        await client.query("BEGIN");
        try {
          for (const statement of statements) await client.query(statement);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      },
      { deadlineMs: options.deadlineMs, signal: options.signal },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A connected client, retried while the server is starting or unreachable, until the deadline. */
async function openClient(url: string, options: MigrateOptions): Promise<pg.Client> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_STARTUP_DEADLINE_MS;
  const started = Date.now();
  try {
    return await withReconnect(
      async () => {
        const client = new pg.Client({
          connectionString: url,
          application_name: options.applicationName ?? "reelsmith migrate",
          connectionTimeoutMillis: 10_000,
        });
        client.on("error", (error) =>
          options.logger?.warn?.("schema connection lost", { error: error.message }),
        );
        try {
          await client.connect();
          return client;
        } catch (error) {
          await client.end().catch(() => undefined);
          throw error;
        }
      },
      { forMs: deadlineMs, logger: options.logger, signal: options.signal },
    );
  } catch (error) {
    throw connectionWaitError(url, started, error);
  }
}

/**
 * Whether every one of `tables` (qualified names) exists, reading only: the database is
 * waited for up to `forMs` (then a `DatabaseWaitError` naming it, see
 * {@link connectionWaitError}). A command that must not change the database asks this
 * instead of migrating.
 * @example if (!(await hasTables(pool, url, ["reelsmith.runs"], { forMs: 10_000 }))) …
 */
export async function hasTables(
  pool: Pick<pg.Pool, "query">,
  url: string,
  tables: readonly string[],
  options: { forMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  const started = Date.now();
  try {
    const found = await withReconnect(
      () =>
        pool.query<{ missing: number }>(
          "SELECT count(*) FILTER (WHERE to_regclass(name) IS NULL)::int AS missing FROM unnest($1::text[]) AS name",
          [tables],
        ),
      options,
    );
    return found.rows[0]?.missing === 0;
  } catch (error) {
    throw connectionWaitError(url, started, error);
  }
}

/**
 * What to throw when waiting for a connection to `url` since `started` failed: a
 * `DatabaseWaitError` naming the database (without its password) when it never answered,
 * else the error itself.
 * @example catch (error) { throw connectionWaitError(url, started, error); }
 */
function connectionWaitError(url: string, started: number, error: unknown): unknown {
  if (!isConnectionError(error)) return error;
  return new DatabaseWaitError(`a connection to ${maskUrl(url)}`, Date.now() - started, {
    cause: error,
  });
}

/** The URL without its password, for messages. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the database";
  }
}

/** DBOS's migration reports through a logger of its own shape; this one forwards warnings. */
function dbosMigrationLogger(logger: Logger | undefined) {
  const text = (entry: unknown) => (entry instanceof Error ? entry.message : String(entry));
  return {
    info: (entry: unknown) => logger?.info?.(`dbos: ${text(entry)}`),
    debug: () => undefined,
    warn: (entry: unknown) => logger?.warn?.(`dbos: ${text(entry)}`),
    error: (entry: unknown) => logger?.error?.(`dbos: ${text(entry)}`),
    destroy: async () => undefined,
  } as unknown as Parameters<typeof migrateSystemDatabase>[1];
}
