import type { Pool, PoolClient } from "pg";
import { SCHEMA } from "../database/schema.js";
import type { PriceKind } from "./video-price.js";

/** What the database knows of a kind of job's price, read under its row lock. */
export interface LearntPrice {
  /** Credits a completed job of this kind cost; undefined while not learnt. */
  credits: number | undefined;
  /** The reservation key of the job sent alone to learn it, while that job is still open. */
  openProbe: string | undefined;
}

const where = "service = $1 AND model = $2 AND size = $3 AND seconds = $4";
const values = (kind: PriceKind) => [kind.service, kind.model, kind.size, kind.seconds];

/**
 * Locks the row of a kind of job's price (made when missing) for the transaction, and says
 * what is known: its learnt price, and the job still learning it. A probe is open while its
 * reservation is held and its run has not ended: a probe released, refused, or of a run that
 * ended (its worker gone for good) lets the next job of the kind learn instead.
 * @example const { credits, openProbe } = await lockLearntPrice(client, kind);
 */
export async function lockLearntPrice(client: PoolClient, kind: PriceKind): Promise<LearntPrice> {
  await client.query(
    `INSERT INTO ${SCHEMA}.video_prices (service, model, size, seconds) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    values(kind),
  );
  const found = await client.query<{ credits: string | null; probe: string | null; open: boolean }>(
    `SELECT p.credits, p.probe,
       COALESCE(r.state = 'reserved' AND runs.ended_at IS NULL, false) AS open
     FROM ${SCHEMA}.video_prices p
     LEFT JOIN ${SCHEMA}.reservations r ON r.key = p.probe
     LEFT JOIN ${SCHEMA}.runs runs ON runs.run_id = r.run_id
     WHERE p.service = $1 AND p.model = $2 AND p.size = $3 AND p.seconds = $4
     FOR UPDATE OF p`,
    values(kind),
  );
  const row = found.rows[0];
  return {
    credits: row?.credits == null ? undefined : Number(row.credits),
    openProbe: row?.open && row.probe ? row.probe : undefined,
  };
}

/** Marks the job under `key` as the one learning the kind's price (its row locked before). */
export async function takeProbe(client: PoolClient, kind: PriceKind, key: string): Promise<void> {
  await client.query(`UPDATE ${SCHEMA}.video_prices SET probe = $5 WHERE ${where}`, [
    ...values(kind),
    key,
  ]);
}

/** Keeps what the job under `key` cost as its kind's price, when it was learning it. */
export async function learnFromProbe(
  client: PoolClient,
  key: string,
  credits: number,
): Promise<void> {
  await client.query(
    `UPDATE ${SCHEMA}.video_prices SET credits = $2, probe = NULL, learnt_at = now()
     WHERE probe = $1`,
    [key, credits],
  );
}

/** Frees the kinds the jobs under `keys` were learning (they will not complete). */
export async function dropProbes(client: PoolClient, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.query(`UPDATE ${SCHEMA}.video_prices SET probe = NULL WHERE probe = ANY($1)`, [
    [...keys],
  ]);
}

/** A price learnt from a completed job. */
export interface LearntPriceRow extends PriceKind {
  credits: number;
  learntAt: Date;
}

/**
 * The video prices learnt from completed jobs (for models whose catalog gives none), of one
 * service account or of all.
 * @example const prices = await listLearntPrices(pool, service.key);
 */
export async function listLearntPrices(pool: Pool, service?: string): Promise<LearntPriceRow[]> {
  const result = await pool.query<{
    service: string;
    model: string;
    size: string;
    seconds: string;
    credits: string;
    learnt_at: Date;
  }>(
    `SELECT service, model, size, seconds, credits, learnt_at FROM ${SCHEMA}.video_prices
     WHERE credits IS NOT NULL AND ($1::text IS NULL OR service = $1)
     ORDER BY service, model, size, seconds`,
    [service ?? null],
  );
  return result.rows.map((row) => ({
    service: row.service,
    model: row.model,
    size: row.size,
    seconds: row.seconds,
    credits: Number(row.credits),
    learntAt: row.learnt_at,
  }));
}
