import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { Pool } from "pg";
import { setBudget } from "../budget/database-budget.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes, queueNames, type ServiceAccount } from "../service.js";

/** Account-wide limits of a service account, shared by every worker on every machine. */
export interface ServiceLimits {
  /** Video jobs in flight at once, account-wide (the video queue's global concurrency). */
  maxVideos?: number;
  /** Paid requests started per minute, per kind (each queue's rate limit). */
  requestsPerMinute?: number;
  /**
   * Units of this service one worker runs at once (default: twice `maxVideos` for video
   * units, none for chat); video jobs in flight stay within `maxVideos` whatever it is.
   */
  workerConcurrency?: number;
  /** Credits the whole account may spend (checked with every reservation); null clears it. */
  budget?: number | null;
  /** How often workers poll the queues (ms). */
  pollIntervalMs?: number;
}

/**
 * Writes a service account's limits in the one place every worker reads them: the service's
 * DBOS queues (global concurrency, rate limit, worker concurrency) and its budget row. A limit
 * not given keeps its stored value.
 * @example await configureService(pool, dbos, service, { maxVideos: 4, requestsPerMinute: 60 });
 */
export async function configureService(
  pool: Pool,
  dbos: DBOSClient,
  service: ServiceAccount,
  limits: ServiceLimits,
): Promise<Required<Omit<ServiceLimits, "budget" | "pollIntervalMs">>> {
  const stored = await pool.query(
    `INSERT INTO ${SCHEMA}.services (service, base_url, account, max_videos, requests_per_minute, worker_concurrency)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (service) DO UPDATE SET
       max_videos = COALESCE(EXCLUDED.max_videos, ${SCHEMA}.services.max_videos),
       requests_per_minute = COALESCE(EXCLUDED.requests_per_minute, ${SCHEMA}.services.requests_per_minute),
       worker_concurrency = COALESCE(EXCLUDED.worker_concurrency, ${SCHEMA}.services.worker_concurrency),
       updated_at = now()
     RETURNING max_videos, requests_per_minute, worker_concurrency`,
    [
      service.key,
      service.baseURL,
      service.account,
      limits.maxVideos ?? null,
      limits.requestsPerMinute ?? null,
      limits.workerConcurrency ?? null,
    ],
  );
  const row = stored.rows[0] as Record<string, number | null>;
  const maxVideos = row.max_videos ?? 4;
  const requestsPerMinute = row.requests_per_minute ?? 0;
  // A video unit waits for a slot, polls its job and downloads its clip; a worker runs twice
  // as many as the account has slots by default, so that downloads overlap the next jobs.
  const workerConcurrency = row.worker_concurrency ?? maxVideos * 2;
  const rateLimit =
    requestsPerMinute > 0
      ? { rateLimit: { limitPerPeriod: requestsPerMinute, periodSec: 60 } }
      : {};
  const polling = { minPollingIntervalMs: limits.pollIntervalMs ?? 100 };
  const queue = { onConflict: "always_update", applicationName: "reelsmith" } as const;
  await dbos.registerQueue(queueNames.videoUnits(service.key), {
    workerConcurrency,
    ...polling,
    ...queue,
  });
  // A slot is started per video submission: its concurrency is the jobs in flight, its
  // rate the video requests per minute.
  await dbos.registerQueue(queueNames.video(service.key), {
    globalConcurrency: maxVideos,
    ...rateLimit,
    ...polling,
    ...queue,
  });
  await dbos.registerQueue(queueNames.chat(service.key), {
    ...(row.worker_concurrency ? { workerConcurrency: row.worker_concurrency } : {}),
    ...rateLimit,
    ...polling,
    ...queue,
  });
  if (limits.budget !== undefined) {
    await setBudget(pool, budgetScopes.account(service.key), limits.budget);
  }
  return { maxVideos, requestsPerMinute, workerConcurrency };
}
