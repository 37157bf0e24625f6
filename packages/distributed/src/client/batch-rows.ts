import { basename, dirname, join, resolve } from "node:path";
import type { RunEvent } from "@reelsmith/runner";
import type { BatchJson, BatchRowHost, BatchRowOutcome } from "@reelsmith/runner/batch";
import { accountRouting } from "@reelsmith/runner/cache";
import { setBudget } from "../budget/database-budget.js";
import { databaseRunCache } from "../cache/database-run-cache.js";
import { withReconnect } from "../database/pool.js";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes } from "../service.js";
import type { Coordinator } from "./connect.js";
import { type FollowedRun, followRun, lastEventId, type NoWorkerNotice } from "./follow-run.js";
import { resumeRun, type SubmitRunOptions, submitRun } from "./submit-run.js";

/** What every row's run is submitted with: the service, the artifacts, the limits. */
export type BatchRowRunOptions = Omit<
  SubmitRunOptions,
  "pipeline" | "inputs" | "runId" | "maxCredits" | "allowPartial" | "sharedBudget" | "artifacts"
>;

/** Options of {@link createDatabaseRowHost}. */
export interface DatabaseRowHostOptions {
  /** How each row's run is submitted (service, account, catalogs, client, slots, cache). */
  submit: BatchRowRunOptions;
  /** The batch's budget, kept in the database as the batch's scope (none: no maximum). */
  maxCredits?: number;
  /** Stops following (the runs go on on the workers). */
  signal?: AbortSignal;
  /** Told when no live worker takes the rows' runs (see followRun). */
  onNoWorker?: (notice: NoWorkerNotice) => void;
}

/**
 * The run id of a batch's row: the batch directory's name and the row's id, so that the
 * batch names it before it journals it, and a resumed batch finds it in the database.
 * @example rowRunId("/work/runs/20260101-120000-storyboard-batch", "r-3f2a1b4c5d6e") // "20260101-120000-storyboard-batch-r-3f2a1b4c5d6e"
 */
export function rowRunId(batchDir: string, rowId: string): string {
  return `${basename(batchDir)}-${rowId}`.replace(/[^A-Za-z0-9_.-]+/g, "-");
}

function outcomeOf(result: FollowedRun): BatchRowOutcome {
  return {
    status: result.status,
    runId: result.runId,
    runDir: result.runDir,
    outputs: result.outputs,
    totals: { credits: result.totals.credits },
    durationMs: result.durationMs,
    ...(result.error ? { error: result.error } : {}),
  };
}

/**
 * A batch's rows on the workers of a shared database: each admitted row's run is submitted
 * (named by {@link rowRunId}, its directory beside the batch directory, in the artifacts
 * directory all workers share) and followed until it ends. Every run's reservations count
 * against the batch's scope (`batch:<id>`, its maximum the batch's budget) on every worker,
 * beside the run's own share. A row taken on again is never paid twice: a run that
 * succeeded is read back, one that stopped is resumed from its journal (its budget raised
 * to the row's new share), one still running is followed. The batch's summary is published
 * in the database, for `status BATCH_ID` on any machine.
 * @example const rowHost = createDatabaseRowHost(coordinator, { submit: { baseURL }, maxCredits: 200 });
 */
export function createDatabaseRowHost(
  coordinator: Coordinator,
  options: DatabaseRowHostOptions,
): BatchRowHost {
  let scope: string | undefined;
  const follow = (runId: string, after: number, onEvent: (event: RunEvent) => void) =>
    followRun(coordinator, runId, {
      onEvent,
      afterEventId: after,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onNoWorker ? { onNoWorker: options.onNoWorker } : {}),
    });
  return {
    name: "database",
    place(batch, rowId) {
      scope = budgetScopes.batch(batch.batchId);
      const runId = rowRunId(batch.batchDir, rowId);
      return { runId, runDir: join(dirname(resolve(batch.batchDir)), runId) };
    },
    async run(request) {
      const runId = request.runId as string;
      const shared = { scope: scope as string, maxCredits: options.maxCredits ?? null };
      const stored = await coordinator.store.getRun(runId);
      if (!stored) {
        // Never submitted (or the batch stopped between its journal and the database).
        await submitRun(coordinator, {
          ...options.submit,
          pipeline: request.pipelinePath,
          inputs: request.inputs,
          runId,
          artifacts: dirname(request.runDir),
          ...(request.maxCredits === undefined ? {} : { maxCredits: request.maxCredits }),
          ...(request.allowPartial ? { allowPartial: true } : {}),
          sharedBudget: shared,
        });
        return outcomeOf(await follow(runId, 0, request.onEvent));
      }
      const after = await lastEventId(coordinator, runId);
      if (stored.endedAt && stored.status === "succeeded") {
        // Finished (its end not yet journaled by the batch): read back, never run again.
        return {
          status: "succeeded",
          runId,
          runDir: stored.runDir,
          outputs: stored.outputs ?? {},
          totals: { credits: Number(stored.totals?.credits ?? 0) },
          durationMs: 0,
        };
      }
      if (stored.endedAt) {
        await setBudget(coordinator.pool, shared.scope, shared.maxCredits);
        const { maxCredits: _previous, ...kept } = stored.options;
        await coordinator.store.setOptions(runId, {
          ...kept,
          ...(request.maxCredits === undefined ? {} : { maxCredits: request.maxCredits }),
          ...(request.allowPartial ? { allowPartial: true } : {}),
        });
        await resumeRun(coordinator, runId);
      }
      return outcomeOf(await follow(runId, after, request.onEvent));
    },
    async publish(summary, batchDir) {
      await publishBatch(coordinator, summary, batchDir);
    },
    // The rows' runs are served from the database's cache: their estimates read it too.
    rowsCache(runsRoot) {
      return options.submit.cache === false
        ? undefined
        : databaseRunCache(
            coordinator.pool,
            options.submit.baseURL,
            runsRoot,
            accountRouting(options.submit.accounts ?? [], options.submit.models ?? {}),
          );
    },
  };
}

/**
 * Saves a batch's summary in the database (the batch's rows, their statuses, credits and
 * run ids), for `status BATCH_ID` on any machine.
 * @example await publishBatch(coordinator, summary, batchDir);
 */
export async function publishBatch(
  coordinator: Coordinator,
  summary: BatchJson,
  batchDir: string,
): Promise<void> {
  await withReconnect(() =>
    coordinator.pool.query(
      `INSERT INTO ${SCHEMA}.batches (batch_id, dir_name, batch_dir, summary, updated_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (batch_id) DO UPDATE
       SET summary = EXCLUDED.summary, batch_dir = EXCLUDED.batch_dir, updated_at = now()`,
      [summary.batchId, basename(batchDir), resolve(batchDir), JSON.stringify(summary)],
    ),
  );
}

/** A batch as `status BATCH_ID` shows it: its summary, and each running row's spend so far. */
export interface BatchDetail {
  batchDir: string;
  summary: BatchJson;
  updatedAt: Date;
  /** What the batch's scope holds: spent and reserved by its rows' runs on every worker. */
  budget: { spent: number; reserved: number; maxCredits: number | null };
  /** Each row's run as the database has it now (rows started only). */
  runs: Record<string, { status: string; spent: number; reserved: number }>;
}

/**
 * A batch the database knows, by its id or its directory's name (undefined when none).
 * @example const batch = await batchDetail(coordinator, "20260101-120000-storyboard-batch");
 */
export async function batchDetail(
  coordinator: Coordinator,
  id: string,
): Promise<BatchDetail | undefined> {
  const found = await coordinator.pool.query<{
    batch_dir: string;
    summary: BatchJson;
    updated_at: Date;
  }>(
    `SELECT batch_dir, summary, updated_at FROM ${SCHEMA}.batches
     WHERE batch_id = $1 OR dir_name = $1 ORDER BY updated_at DESC LIMIT 1`,
    [id],
  );
  const row = found.rows[0];
  if (!row) return undefined;
  const summary = row.summary;
  const runIds = summary.rows.flatMap((each) => (each.runId ? [each.runId] : []));
  const scopes = [budgetScopes.batch(summary.batchId), ...runIds.map(budgetScopes.run)];
  const budgets = await coordinator.pool.query<{
    scope: string;
    max_credits: string | null;
    spent: string;
    reserved: string;
  }>(`SELECT scope, max_credits, spent, reserved FROM ${SCHEMA}.budgets WHERE scope = ANY($1)`, [
    scopes,
  ]);
  const byScope = new Map(budgets.rows.map((each) => [each.scope, each]));
  const statuses = await coordinator.pool.query<{ run_id: string; status: string }>(
    `SELECT run_id, status FROM ${SCHEMA}.runs WHERE run_id = ANY($1)`,
    [runIds],
  );
  const runs: BatchDetail["runs"] = {};
  for (const { run_id, status } of statuses.rows) {
    const budget = byScope.get(budgetScopes.run(run_id));
    runs[run_id] = {
      status,
      spent: Number(budget?.spent ?? 0),
      reserved: Number(budget?.reserved ?? 0),
    };
  }
  const own = byScope.get(budgetScopes.batch(summary.batchId));
  return {
    batchDir: row.batch_dir,
    summary,
    updatedAt: row.updated_at,
    budget: {
      spent: Number(own?.spent ?? 0),
      reserved: Number(own?.reserved ?? 0),
      maxCredits: own?.max_credits === null || own === undefined ? null : Number(own.max_credits),
    },
    runs,
  };
}
