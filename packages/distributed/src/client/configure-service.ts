import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { queueSlotSizes } from "@reelsmith/runner/internal";
import { type AnyStepKind, builtInStepKinds } from "@reelsmith/runner/kinds";
import type { Pool } from "pg";
import { setBudget } from "../budget/database-budget.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes, queueNames, type ServiceAccount } from "../service.js";

/** Account-wide limits of a service account, shared by every worker on every machine. */
export interface ServiceLimits {
  /**
   * Units of each queue with slots holding one at once, account-wide, by queue name (the
   * queue a kind declares: `{ video: 4 }` for video jobs in flight; each queue's global
   * concurrency). A queue not named keeps its stored limit, else what its kinds declare.
   */
  slots?: Readonly<Record<string, number>>;
  /** Paid requests started per minute, per queue (each queue's rate limit). */
  requestsPerMinute?: number;
  /**
   * Units of this service one worker runs at once (default: twice a queue's slots for a
   * queue with slots, none for the others); units holding slots stay within them whatever it is.
   */
  workerConcurrency?: number;
  /** Credits the whole account may spend (checked with every reservation); null clears it. */
  budget?: number | null;
  /** How often workers poll the queues (ms). */
  pollIntervalMs?: number;
}

/** What a service's limits are once written: every queue's slots, the rate, the worker concurrency. */
export interface StoredServiceLimits {
  slots: Record<string, number>;
  requestsPerMinute: number;
  workerConcurrency: number | null;
}

/**
 * Writes a service account's limits in the one place every worker reads them: the service's
 * DBOS queues (for each queue the kinds declare: its units' queue and, for a queue with slots,
 * the slots' queue with its global concurrency; rate limit, worker concurrency) and its budget
 * row. A limit not given keeps its stored value.
 * @example await configureService(pool, dbos, service, { slots: { video: 4 }, requestsPerMinute: 60 });
 */
export async function configureService(
  pool: Pool,
  dbos: DBOSClient,
  service: ServiceAccount,
  limits: ServiceLimits,
  kinds: Iterable<AnyStepKind> = builtInStepKinds,
): Promise<StoredServiceLimits> {
  const known = [...kinds];
  const stored = await pool.query(
    `INSERT INTO ${SCHEMA}.services (service, base_url, account, slots, requests_per_minute, worker_concurrency)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (service) DO UPDATE SET
       slots = COALESCE(${SCHEMA}.services.slots, '{}'::jsonb) || COALESCE(EXCLUDED.slots, '{}'::jsonb),
       requests_per_minute = COALESCE(EXCLUDED.requests_per_minute, ${SCHEMA}.services.requests_per_minute),
       worker_concurrency = COALESCE(EXCLUDED.worker_concurrency, ${SCHEMA}.services.worker_concurrency),
       updated_at = now()
     RETURNING slots, requests_per_minute, worker_concurrency`,
    [
      service.key,
      service.baseURL,
      service.account,
      limits.slots ? JSON.stringify(limits.slots) : null,
      limits.requestsPerMinute ?? null,
      limits.workerConcurrency ?? null,
    ],
  );
  const row = stored.rows[0] as {
    slots: Record<string, number> | null;
    requests_per_minute: number | null;
    worker_concurrency: number | null;
  };
  const requestsPerMinute = row.requests_per_minute ?? 0;
  const rateLimit =
    requestsPerMinute > 0
      ? { rateLimit: { limitPerPeriod: requestsPerMinute, periodSec: 60 } }
      : {};
  const polling = { minPollingIntervalMs: limits.pollIntervalMs ?? 100 };
  const queue = { onConflict: "always_update", applicationName: "reelsmith" } as const;
  // A stored limit counts for a queue the kinds give slots to; the others have none.
  const declared = queueSlotSizes(known);
  const slots = queueSlotSizes(
    known,
    Object.fromEntries(Object.entries(row.slots ?? {}).filter(([name]) => name in declared)),
  );
  for (const name of queuesOf(known)) {
    const size = slots[name];
    if (size === undefined) {
      await dbos.registerQueue(queueNames.units(service.key, name, false), {
        ...(row.worker_concurrency ? { workerConcurrency: row.worker_concurrency } : {}),
        ...rateLimit,
        ...polling,
        ...queue,
      });
      continue;
    }
    // A unit of a queue with slots waits for one, holds it while the service works (a video
    // job) and then finishes alone (downloads its clip): a worker runs twice as many units as
    // the account has slots by default, so that the finishing overlaps the next jobs.
    await dbos.registerQueue(queueNames.units(service.key, name, true), {
      workerConcurrency: row.worker_concurrency ?? size * 2,
      ...polling,
      ...queue,
    });
    // A slot is started per unit that takes one: its concurrency is the units holding
    // capacity at the service, its rate the queue's requests per minute.
    await dbos.registerQueue(queueNames.slots(service.key, name), {
      globalConcurrency: size,
      ...rateLimit,
      ...polling,
      ...queue,
    });
  }
  if (limits.budget !== undefined) {
    await setBudget(pool, budgetScopes.account(service.key), limits.budget);
  }
  return { slots, requestsPerMinute, workerConcurrency: row.worker_concurrency };
}

/** The account queues the kinds wait on (not this machine's). */
function queuesOf(kinds: Iterable<AnyStepKind>): Set<string> {
  return new Set([...kinds].map((kind) => kind.queue).filter((name) => name !== "local"));
}
