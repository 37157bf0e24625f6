import type { RunTotals } from "@reelsmith/runner";
import { heldJobOf, replayJournal, SINGLE_ITEM } from "@reelsmith/runner/internal";
import type { HeldJob } from "@reelsmith/runner/kinds";
import { type GateState, gatesOf, ledgerOf } from "@reelsmith/runner/runs";
import { SCHEMA } from "../database/schema.js";
import { budgetScopes } from "../service.js";
import type { Coordinator } from "./connect.js";

/** One line of `reelsmith status`. */
export interface RunSummary {
  runId: string;
  name: string;
  status: string;
  createdAt: Date;
  endedAt?: Date;
  /**
   * Credits spent (the run's ledger: what the service charged), saved by the cache, and still
   * reserved by submissions in flight; the run's budget.
   */
  credits: { spent: number; saved: number; reserved: number; max: number | null };
  /**
   * What it spent in units that are not credits (a provider's `unit:` with no
   * `credits_per_unit`), by unit (`{ usd: 0.85 }`): never added to its credits.
   */
  otherUnits?: Record<string, number>;
}

/** A video job as the journal knows it. */
export interface JobState {
  step: string;
  index?: number;
  jobId: string;
  state: NonNullable<HeldJob["state"]>;
}

/** `reelsmith status RUN_ID`: the run, its steps, its units on the queues, its jobs. */
export interface RunDetail extends RunSummary {
  runDir: string;
  attempt: number;
  error?: { name: string; message: string; code?: string };
  steps: { id: string; status: string; items: number; succeeded: number; failed: number }[];
  /** Units of the current attempt by DBOS state (ENQUEUED, PENDING, SUCCESS, …). */
  units: Record<string, number>;
  jobs: JobState[];
  /**
   * The gates (`approve:` steps) the run reached: waiting (with the question and until when),
   * or decided (who, when, why).
   */
  gates: GateState[];
  /** The run's ledger: every figure (tokens, jobs submitted, re-attached, from the cache). */
  totals: RunTotals;
}

/**
 * The run's figures as the runner's ledger reads its whole journal: which records count, and
 * how a repeated one counts, is the ledger's to say (no filter of this package's own), so
 * `status` shows what the run's end, the report and a local run show.
 */
async function ledgerFigures(coordinator: Coordinator, runId: string): Promise<RunTotals> {
  return ledgerOf(await coordinator.store.journalRecords(runId)).total;
}

async function spending(
  coordinator: Coordinator,
  runId: string,
  totals?: RunTotals,
): Promise<Pick<RunSummary, "credits" | "otherUnits">> {
  const figures = totals ?? (await ledgerFigures(coordinator, runId));
  const result = await coordinator.pool.query(
    `SELECT max_credits, reserved FROM ${SCHEMA}.budgets WHERE scope = $1`,
    [budgetScopes.run(runId)],
  );
  const row = result.rows[0];
  return {
    credits: {
      spent: figures.credits,
      saved: figures.savedCredits,
      reserved: Number(row?.reserved ?? 0),
      max: row?.max_credits == null ? null : Number(row.max_credits),
    },
    ...(figures.otherUnits && Object.keys(figures.otherUnits).length > 0
      ? { otherUnits: figures.otherUnits }
      : {}),
  };
}

/**
 * The newest runs (default 20), each with its state and credits (and what it spent in other
 * units, apart).
 * @example for (const run of await listRunSummaries(coordinator)) console.log(run.runId, run.status);
 */
export async function listRunSummaries(
  coordinator: Coordinator,
  limit = 20,
): Promise<RunSummary[]> {
  const runs = await coordinator.store.listRuns(limit);
  return Promise.all(
    runs.map(async (run) => ({
      runId: run.runId,
      name: run.name,
      status: run.cancelRequested && !run.endedAt ? "cancelling" : run.status,
      createdAt: run.createdAt,
      ...(run.endedAt ? { endedAt: run.endedAt } : {}),
      ...(await spending(coordinator, run.runId)),
    })),
  );
}

/**
 * One run in detail: steps from its journal, units from DBOS, jobs from the journal's facts.
 * @example const detail = await runDetail(coordinator, runId); detail?.jobs.length
 */
export async function runDetail(
  coordinator: Coordinator,
  runId: string,
): Promise<RunDetail | undefined> {
  const run = await coordinator.store.getRun(runId);
  if (!run) return undefined;
  const records = await coordinator.store.journalRecords(runId);
  const state = replayJournal(records);
  const totals = ledgerOf(records).total;
  const steps: RunDetail["steps"] = [];
  const jobs: JobState[] = [];
  for (const [id, step] of state.steps) {
    const items = [...step.items.entries()].filter(
      ([index]) => index !== SINGLE_ITEM || step.items.size === 1,
    );
    steps.push({
      id,
      status: step.status,
      items: items.length,
      succeeded: items.filter(([, item]) => item.status === "succeeded").length,
      failed: items.filter(([, item]) => item.status === "failed").length,
    });
    for (const [index, item] of step.items) {
      // The job the unit's kind says it holds, read from the facts it journaled.
      const held = heldJobOf(item.facts);
      if (!held) continue;
      jobs.push({
        step: id,
        ...(index === SINGLE_ITEM ? {} : { index }),
        jobId: held.id,
        state: held.state ?? "submitted",
      });
    }
  }
  const units: Record<string, number> = {};
  const workflows = await coordinator.dbos.listWorkflows({
    workflow_id_prefix: `${runId}:${run.attempt}:`,
    loadInput: false,
    loadOutput: false,
  });
  for (const workflow of workflows) units[workflow.status] = (units[workflow.status] ?? 0) + 1;
  return {
    runId,
    name: run.name,
    status: run.cancelRequested && !run.endedAt ? "cancelling" : run.status,
    createdAt: run.createdAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
    ...(await spending(coordinator, runId, totals)),
    totals,
    runDir: run.runDir,
    attempt: run.attempt,
    ...(run.error ? { error: run.error } : {}),
    steps,
    units,
    jobs,
    gates: gatesOf(state),
  };
}
