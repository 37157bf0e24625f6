import { type CacheEntry, type CacheIndex, entryBytes } from "@reelsmith/runner/cache";
import type { Pool, QueryResultRow } from "pg";
import { type Logger, withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";

const TABLE = `${SCHEMA}.cache_entries`;
const COLUMNS = "key, kind, step, summary, outputs, files, bytes, created_at, worth";

/** A row of `reelsmith.cache_entries` as pg returns it (bigint as text, timestamptz as Date). */
interface CacheRow {
  key: string;
  kind: string;
  step: string;
  summary: string | null;
  outputs: Record<string, unknown>;
  files: CacheEntry["files"];
  bytes: string;
  created_at: Date;
  worth: CacheEntry["worth"] | null;
}

/** The entry a row holds. */
function entryOfRow(row: CacheRow): CacheEntry {
  return {
    key: row.key,
    kind: row.kind,
    step: row.step,
    createdAt: row.created_at.toISOString(),
    outputs: row.outputs,
    files: row.files ?? {},
    ...(row.summary ? { summary: row.summary } : {}),
    ...(row.worth ? { worth: row.worth } : {}),
  };
}

/** Newest first (then by key, so equal times list in one order). */
const NEWEST_FIRST = "ORDER BY created_at DESC, key";

/**
 * The cache index of a distributed run: one row per entry in `reelsmith.cache_entries`,
 * shared by every worker, while the clips' bytes stay blobs by sha256 in the artifacts
 * directory's `.cache/blobs`. `put` is an upsert, so two workers storing the same result at
 * once both succeed (the later one's row stays). Queries wait out a database restart.
 * @example await runUnit(work, { ...services, cacheIndex: createDatabaseCacheIndex(pool) });
 */
export function createDatabaseCacheIndex(
  pool: Pool,
  options: { logger?: Logger } = {},
): CacheIndex {
  const query = <R extends object>(text: string, values: unknown[] = []) =>
    withReconnect(() => pool.query<R & QueryResultRow>(text, values), {
      ...(options.logger ? { logger: options.logger } : {}),
    });
  return {
    async get(key) {
      const result = await query<CacheRow>(`SELECT ${COLUMNS} FROM ${TABLE} WHERE key = $1`, [key]);
      const row = result.rows[0];
      return row ? entryOfRow(row) : undefined;
    },
    async put(entry) {
      await query(
        `INSERT INTO ${TABLE} (${COLUMNS})
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb)
         ON CONFLICT (key) DO UPDATE SET
           kind = EXCLUDED.kind, step = EXCLUDED.step, summary = EXCLUDED.summary,
           outputs = EXCLUDED.outputs, files = EXCLUDED.files, bytes = EXCLUDED.bytes,
           created_at = EXCLUDED.created_at, worth = EXCLUDED.worth`,
        [
          entry.key,
          entry.kind,
          entry.step,
          entry.summary ?? null,
          JSON.stringify(entry.outputs),
          JSON.stringify(entry.files),
          entryBytes(entry),
          entry.createdAt,
          entry.worth ? JSON.stringify(entry.worth) : null,
        ],
      );
    },
    async delete(key) {
      await query(`DELETE FROM ${TABLE} WHERE key = $1`, [key]);
    },
    async list() {
      const result = await query<CacheRow>(`SELECT ${COLUMNS} FROM ${TABLE} ${NEWEST_FIRST}`);
      return result.rows.map(entryOfRow);
    },
    async clear() {
      const result = await query<CacheRow>(`DELETE FROM ${TABLE} RETURNING ${COLUMNS}`);
      return result.rows.map(entryOfRow).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
  };
}
