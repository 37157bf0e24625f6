import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RunWorker } from "@reelsmith/distributed/internal";
import { readRun } from "@reelsmith/report";
import { buildModel, type ReportModel } from "@reelsmith/report/page";
import { runDirectory } from "../security/safe-path.js";

/** One line of the runs list. */
export interface RunSummary {
  /** The run directory's name (its place in the studio's URLs). */
  name: string;
  /** The pipeline's name. */
  pipeline: string;
  pipelinePath?: string;
  status: string;
  /** Credits spent, as the run's ledger says. */
  spent: number;
  /** Spent in units that are not credits (`{ usd: 0.15 }`), never added to `spent`. */
  otherUnits?: Record<string, number>;
  /** Credits the run was expected to cost before it began (its first `run.estimate`). */
  estimate?: number;
  /** False when some of the estimate was known only at run time (it is a lower bound). */
  estimateComplete?: boolean;
  startedAt?: string;
  endedAt?: string;
  /** A run made with `--database` (its state lives in the database; its directory mirrors it). */
  database?: true;
  /** The workers that ran part of it (a run of the database the studio is connected to). */
  workers?: RunWorker[];
}

/**
 * A run's line of the runs list, from its report model.
 * @example summaryOf("20260101-120000-storyboard", buildModel(readRun(dir)))
 */
export function summaryOf(name: string, model: ReportModel): RunSummary {
  return {
    name,
    pipeline: model.name,
    ...(model.pipelinePath ? { pipelinePath: model.pipelinePath } : {}),
    status: model.status,
    spent: model.totals.credits,
    ...(model.totals.otherUnits && Object.keys(model.totals.otherUnits).length > 0
      ? { otherUnits: model.totals.otherUnits }
      : {}),
    ...(model.estimate
      ? { estimate: model.estimate.credits, estimateComplete: model.estimate.complete }
      : {}),
    ...(model.startedAt ? { startedAt: model.startedAt } : {}),
    ...(model.endedAt ? { endedAt: model.endedAt } : {}),
  };
}

/**
 * Newest first (by when each run began, then by name).
 * @example sortRuns([...local, ...database])
 */
export function sortRuns(runs: RunSummary[]): RunSummary[] {
  return runs.sort(
    (a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? "") || b.name.localeCompare(a.name),
  );
}

/**
 * Every run directory right under `runsDir`, newest first, read as the report reads a run
 * (status, the ledger's spent credits, the estimate, when, the pipeline). Directories that are
 * not runs are left out.
 * @example for (const run of listRuns("runs")) console.log(run.name, run.status, run.spent);
 */
export function listRuns(runsDir: string): RunSummary[] {
  if (!existsSync(runsDir)) return [];
  const runs: RunSummary[] = [];
  for (const name of readdirSync(runsDir)) {
    const dir = runDirectory(runsDir, name);
    if (!dir || !(existsSync(join(dir, "run.json")) || existsSync(join(dir, "journal.jsonl"))))
      continue;
    try {
      const record = readRun(dir);
      runs.push({
        ...summaryOf(name, buildModel(record)),
        ...(isDatabaseMirror(record.runJson) ? { database: true as const } : {}),
      });
    } catch {
      // A directory being created or removed right now: left out of this listing.
    }
  }
  return sortRuns(runs);
}

/**
 * Whether a run directory's run.json says it mirrors a run of the database (`run --database`
 * writes a `database` field): its state lives there, never in the directory.
 * @example isDatabaseMirror(readRun(dir).runJson)
 */
export function isDatabaseMirror(runJson: object): boolean {
  const database = (runJson as { database?: unknown }).database;
  return typeof database === "object" && database !== null;
}

/**
 * A cheap stamp of every run under `runsDir` (the names, and the sizes and times of each one's
 * run.json, journal and lock, and a batch's batch.json): it changes whenever the runs list would, without reading them.
 * @example if (runsStamp("runs") !== before) redraw();
 */
export function runsStamp(runsDir: string): string {
  if (!existsSync(runsDir)) return "";
  const parts: string[] = [];
  for (const name of readdirSync(runsDir).sort()) {
    for (const file of ["run.json", "journal.jsonl", "run.lock", "batch.json"]) {
      try {
        const stat = statSync(join(runsDir, name, file));
        parts.push(`${name}/${file}:${stat.size}:${stat.mtimeMs}`);
      } catch {
        parts.push(`${name}/${file}:-`);
      }
    }
  }
  return parts.join("|");
}
