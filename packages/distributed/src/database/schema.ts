import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Pool } from "pg";

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
];

/**
 * Creates reelsmith's tables if they are missing, and DBOS's system tables when `dbos` is
 * given and they are missing (a worker's launch keeps them up to date). Idempotent; an
 * advisory lock keeps processes that start together from racing on the DDL, and `during`
 * runs under the same lock (a worker launches DBOS there).
 * @example await migrate(pool, { dbosUrl: url });
 */
export async function migrate(
  pool: Pool,
  options: { dbosUrl?: string; during?: () => Promise<void> } = {},
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('reelsmith.migrate'))");
    try {
      const dbos = await client.query("SELECT to_regclass('dbos.workflow_status') AS name");
      if (options.dbosUrl && !dbos.rows[0]?.name) await DBOS.migrate(options.dbosUrl);
      for (const statement of statements) await client.query(statement);
      await options.during?.();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('reelsmith.migrate'))");
    }
  } finally {
    client.release();
  }
}
