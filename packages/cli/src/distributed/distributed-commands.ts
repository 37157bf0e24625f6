import { existsSync } from "node:fs";
import path from "node:path";
import {
  type BatchDetail,
  batchDetail,
  type Coordinator,
  cancelRun,
  listRunSummaries,
  type RunDetail,
  type RunSummary,
  runDetail,
  startWorker,
} from "@reelsmith/distributed";
import { listWorkers } from "@reelsmith/distributed/admin";
import { describeOtherUnits } from "@reelsmith/runner/runs";
import { resolveConnection } from "../config/connection.js";
import { addSecret, type CliContext } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors/cli-error.js";
import { jobsLine } from "../render/summary.js";
import {
  databaseTimeoutMs,
  databaseUrl,
  openCoordinator,
  requireDatabaseUrl,
} from "./database-option.js";

/** The run's detail, or a usage error naming the run when the database has none. */
async function requireRunDetail(
  coordinator: Parameters<typeof runDetail>[0],
  runId: string,
): Promise<NonNullable<Awaited<ReturnType<typeof runDetail>>>> {
  const detail = await runDetail(coordinator, runId);
  if (!detail) {
    throw new CliError(`no run ${runId} in the database`, {
      code: "unknown_run",
      category: "usage",
      hint: "list the runs with `reelsmith status`",
    });
  }
  return detail;
}

function credits(summary: RunSummary): string {
  const { spent, saved, reserved, max } = summary.credits;
  // Beside the credits, in the closing table's words: what it spent in other units, apart.
  const apart = describeOtherUnits(summary.otherUnits);
  return `${spent}${reserved ? ` (+${reserved} reserved)` : ""}${max === null ? "" : ` of ${max}`}${saved ? `, ${saved} saved by the cache` : ""}${apart ? ` ${apart}` : ""}`;
}

/**
 * `reelsmith worker`: runs queued work until SIGTERM/Ctrl-C, then stops taking work, lets
 * running units finish for up to `--grace` seconds and hands the rest back (another worker
 * recovers it).
 * @example const code = await workerCommand({ database: url, concurrency: 8 }, context);
 */
export async function workerCommand(
  flags: {
    database?: string;
    concurrency?: number;
    apiKey?: string;
    grace?: number;
    startupTimeout?: number;
  },
  context: CliContext,
): Promise<number> {
  const database = requireDatabaseUrl(flags, context, "worker");
  // --api-key, else REELSMITH_API_KEY; without either, each run's own service.api_key_env
  // variables, then OPENAI_API_KEY, are read by the worker (a local run's order).
  const { OPENAI_API_KEY: _later, ...env } = context.env;
  const connection = resolveConnection({ ...(flags.apiKey ? { apiKey: flags.apiKey } : {}) }, env);
  addSecret(context, connection.apiKey);
  const graceMs = (flags.grace ?? 10) * 1000;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker({
      databaseUrl: database,
      ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
      ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
      startupTimeoutMs: databaseTimeoutMs(context, flags.startupTimeout),
      signal: context.signal,
      logger: {
        warn: (message, data) =>
          context.stderr.write(`warning: ${message} ${data ? JSON.stringify(data) : ""}\n`),
        error: (message, data) =>
          context.stderr.write(`error: ${message} ${data ? JSON.stringify(data) : ""}\n`),
      },
    });
  } catch (error) {
    if (!context.signal.aborted) throw error;
    // Stopped while it was still starting: nothing was taken, nothing is left behind.
    context.stdout.write("worker stopped before it took any work\n");
    return ExitCode.ok;
  }
  context.stdout.write(
    `worker ${worker.executorId} ready: concurrency ${worker.concurrency}, queues ${worker.queues.join(", ")} (stop with Ctrl-C or SIGTERM)\n`,
  );
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  context.stdout.write(
    `stopping: running units may finish within ${graceMs / 1000} s, the rest is handed back\n`,
  );
  await worker.stop({ graceMs });
  context.stdout.write("worker stopped\n");
  return ExitCode.ok;
}

function ago(date: Date): string {
  const seconds = Math.max(0, Math.round((Date.now() - date.getTime()) / 1000));
  return seconds < 120 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

/**
 * `reelsmith status [RUN_ID]`: the newest runs, or one run's steps, units and jobs.
 * @example const code = await statusCommand(undefined, { database: url }, context);
 */
export async function statusCommand(
  runId: string | undefined,
  flags: { database?: string; json?: boolean },
  context: CliContext,
): Promise<number> {
  if (runId && !databaseUrl(flags, context) && isLocalRunDirectory(runId, context.cwd)) {
    // A run made here, not in a shared database: its own commands show it.
    throw new UsageError(`status is for runs in the shared database; ${runId} is a run directory`, {
      code: "database_required",
      hint: `reelsmith report ${runId} rebuilds its report.html (steps, items, costs); reelsmith resume ${runId} goes on with it`,
    });
  }
  // Read only: a status never makes or changes the database's schema (a read-only role can
  // ask it, and workers of another version keep theirs).
  let coordinator: Coordinator;
  try {
    coordinator = await openCoordinator(requireDatabaseUrl(flags, context, "status"), context, {
      readOnly: true,
    });
  } catch (error) {
    if (!isEmptyDatabase(error)) throw error;
    return emptyStatus(runId, flags, context);
  }
  try {
    if (!runId) {
      const runs = await listRunSummaries(coordinator);
      const workers = await listWorkers(coordinator.pool, { live: true });
      if (flags.json) {
        context.stdout.write(`${JSON.stringify({ runs, workers })}\n`);
        return ExitCode.ok;
      }
      context.stdout.write(
        workers.length === 0
          ? "no live worker (start one with: reelsmith worker --database …)\n"
          : `${workers.length} live worker${workers.length === 1 ? "" : "s"}:\n`,
      );
      for (const worker of workers) {
        context.stdout.write(
          `  ${worker.executorId}  concurrency ${worker.concurrency}  last heartbeat ${ago(worker.heartbeatAt)}  since ${worker.startedAt.toISOString()}\n`,
        );
      }
      if (runs.length === 0) context.stdout.write("no runs yet\n");
      for (const run of runs) {
        context.stdout.write(
          `${run.runId}  ${run.status.padEnd(10)}  credits ${credits(run)}  ${run.createdAt.toISOString()}\n`,
        );
      }
      return ExitCode.ok;
    }
    // A batch on the workers, by its id or its directory's name.
    if (!(await runDetail(coordinator, runId))) {
      const batch = await batchDetail(coordinator, runId);
      if (batch) return showBatch(batch, flags, context);
    }
    const detail = await requireRunDetail(coordinator, runId);
    if (flags.json) {
      context.stdout.write(`${JSON.stringify(detail)}\n`);
      return ExitCode.ok;
    }
    const out = (line: string) => context.stdout.write(`${line}\n`);
    out(`${detail.runId}  ${detail.status}  attempt ${detail.attempt}  credits ${credits(detail)}`);
    out(`  run directory: ${detail.runDir}`);
    if (detail.error) out(`  error: ${detail.error.message}`);
    for (const line of gateLines(detail.gates, detail.status)) out(`  ${line}`);
    for (const step of detail.steps) {
      const items =
        step.items > 1
          ? `  ${step.succeeded}/${step.items} items${step.failed ? `, ${step.failed} failed` : ""}`
          : "";
      out(`  step ${step.id.padEnd(16)} ${step.status}${items}`);
    }
    const units = Object.entries(detail.units).map(
      ([state, count]) => `${count} ${state.toLowerCase()}`,
    );
    if (units.length > 0) out(`  units: ${units.join(", ")}`);
    const jobs = new Map<string, number>();
    for (const job of detail.jobs) jobs.set(job.state, (jobs.get(job.state) ?? 0) + 1);
    if (jobs.size > 0) out(`  jobs: ${[...jobs].map(([state, n]) => `${n} ${state}`).join(", ")}`);
    const ledger = jobsLine(detail.totals);
    if (ledger) out(`  ledger: ${ledger}; ${detail.totals.totalTokens} tokens`);
    return ExitCode.ok;
  } finally {
    await coordinator.close();
  }
}

/** The refusal of a read-only connection to a database without reelsmith's tables. */
function isEmptyDatabase(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === "database_empty";
}

/**
 * `status` of a database no run and no worker has used: nothing to list (said, or as JSON),
 * and no run of that id.
 */
function emptyStatus(
  runId: string | undefined,
  flags: { json?: boolean },
  context: CliContext,
): number {
  if (runId) {
    throw new CliError(`no run ${runId} in the database: it has no reelsmith tables yet`, {
      code: "unknown_run",
      category: "usage",
      hint: "no run was queued and no worker started on this database: check --database (or REELSMITH_DATABASE_URL)",
    });
  }
  if (flags.json) context.stdout.write(`${JSON.stringify({ runs: [], workers: [] })}\n`);
  else
    context.stdout.write(
      "no runs yet: the database has no reelsmith tables (no run was queued and no worker started on it)\n",
    );
  return ExitCode.ok;
}

/**
 * `status BATCH_ID`: the batch (its status, what its budget's scope holds on every worker)
 * and one line per row: its status, its credits (a running row's spend so far) and its run id.
 * @example showBatch(await batchDetail(coordinator, id), {}, context);
 */
function showBatch(batch: BatchDetail, flags: { json?: boolean }, context: CliContext): number {
  if (flags.json) {
    context.stdout.write(`${JSON.stringify(batch)}\n`);
    return ExitCode.ok;
  }
  const out = (line: string) => context.stdout.write(`${line}\n`);
  const { summary, budget } = batch;
  const of = budget.maxCredits === null ? "" : ` of ${budget.maxCredits}`;
  const held = budget.reserved ? ` (+${budget.reserved} reserved)` : "";
  out(
    `batch ${summary.batchId}  ${summary.status}  ${summary.rows.length} rows  credits ${budget.spent}${held}${of}  updated ${batch.updatedAt.toISOString()}`,
  );
  out(`  batch directory: ${batch.batchDir}`);
  for (const row of summary.rows) {
    const run = row.runId ? batch.runs[row.runId] : undefined;
    const live = row.status === "running" && run;
    const credits = live ? run.spent : row.credits;
    const status = live && run.status !== "running" ? run.status : row.status;
    out(
      `  row ${row.id.padEnd(16)} line ${String(row.line).padEnd(4)} ${status.padEnd(14)} ${String(credits).padStart(5)} credits${row.runId ? `  run ${row.runId}` : ""}${row.error ? `  ${row.error}` : ""}`,
    );
  }
  return ExitCode.ok;
}

/**
 * What `status` says of a run's gates: where it waits (the question, until when, how to
 * decide), and each decision with who, when and why.
 * @example gateLines(detail.gates, detail.status) // ["waiting for approval at review: …"]
 */
export function gateLines(gates: RunDetail["gates"], status: string): string[] {
  const lines: string[] = [];
  for (const gate of gates) {
    if (gate.state === "waiting") {
      const until = gate.deadline ? ` (until ${gate.deadline})` : "";
      const live = status === "waiting" ? "" : ` (the run is ${status})`;
      lines.push(`waiting for approval at ${gate.step}: ${gate.message}${until}${live}`);
    } else {
      const decision = gate.decision;
      const note = decision?.note ? `: ${decision.note}` : "";
      lines.push(`${gate.state} at ${gate.step} by ${decision?.by} at ${decision?.at}${note}`);
    }
  }
  return lines;
}

/**
 * `reelsmith cancel RUN_ID`: no new submissions, queued units cancelled, running waits stopped.
 * @example const code = await cancelCommand(runId, { database: url }, context);
 */
export async function cancelCommand(
  runId: string,
  flags: { database?: string },
  context: CliContext,
): Promise<number> {
  const coordinator = await openCoordinator(requireDatabaseUrl(flags, context, "cancel"), context);
  try {
    const detail = await requireRunDetail(coordinator, runId);
    if (detail.endedAt && detail.status !== "waiting") {
      context.stdout.write(`run ${runId} already ended (${detail.status}); nothing to cancel\n`);
      return ExitCode.ok;
    }
    const { cancelledUnits, alreadyEnded } = await cancelRun(coordinator, runId);
    if (alreadyEnded) {
      const ended = await requireRunDetail(coordinator, runId);
      context.stdout.write(`run ${runId} already ended (${ended.status}); nothing to cancel\n`);
      return ExitCode.ok;
    }
    context.stdout.write(
      `run ${runId} cancelled: nothing new is submitted, ${cancelledUnits} queued unit(s) cancelled; jobs already at the service finish there (the service cannot cancel them)\n`,
    );
    return ExitCode.ok;
  } finally {
    await coordinator.close();
  }
}

/** True when `given` names a run directory here (its journal is in it). */
function isLocalRunDirectory(given: string, cwd: string): boolean {
  return existsSync(path.join(path.resolve(cwd, given), "journal.jsonl"));
}
