import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { readBatchJson } from "@reelsmith/runner/batch";
import { rowRunName, runDirectory } from "../security/safe-path.js";

/** One row of a batch, as the studio shows it. */
export interface BatchRowSummary {
  id: string;
  line: number;
  status: string;
  credits: number;
  durationMs?: number;
  /** The studio's name of the row's run (`BATCH~ROW`), once the row started. */
  run?: string;
  /** The final video, relative to the row's run directory (a link under its page). */
  final?: string;
  error?: string;
}

/** A batch directory under the runs directory. */
export interface BatchSummary {
  /** The batch directory's name (its place in the studio's URLs). */
  name: string;
  /** The batch's name (its pipeline's, with `-batch`). */
  batch: string;
  status: string;
  credits: number;
  startedAt?: string;
  updatedAt?: string;
  rows: BatchRowSummary[];
  /** Rows by status. */
  counts: Record<string, number>;
}

/**
 * A batch directory's summary from its batch.json, or undefined when it holds none yet (or is
 * not a batch).
 * @example readBatchSummary("/srv/runs", "20260101-120000-storyboard-batch")?.rows.length
 */
export function readBatchSummary(runsDir: string, name: string): BatchSummary | undefined {
  const dir = runDirectory(runsDir, name);
  if (!dir || !existsSync(join(dir, "batch.jsonl"))) return undefined;
  let batch: ReturnType<typeof readBatchJson>;
  try {
    batch = readBatchJson(dir);
  } catch {
    // batch.json is written atomically; a batch that has none yet shows no rows.
    batch = undefined;
  }
  const rows: BatchRowSummary[] = (batch?.rows ?? []).map((row) => {
    const runDir = row.runDir ? resolve(dir, row.runDir) : undefined;
    const final =
      runDir && row.final ? relative(runDir, resolve(dir, row.final)).split("\\").join("/") : "";
    return {
      id: row.id,
      line: row.line,
      status: row.status,
      credits: row.credits,
      ...(row.durationMs === undefined ? {} : { durationMs: row.durationMs }),
      // A row run on the workers has its directory beside the batch's: a run of its own.
      ...(runDir
        ? {
            run: dirname(runDir) === resolve(runsDir) ? basename(runDir) : rowRunName(name, row.id),
          }
        : {}),
      ...(final && !final.startsWith("..") ? { final } : {}),
      ...(row.error ? { error: row.error } : {}),
    };
  });
  rows.sort((a, b) => a.line - b.line);
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return {
    name,
    batch: batch?.name ?? name,
    status: batch?.status ?? "running",
    credits: batch?.credits ?? 0,
    ...(batch?.startedAt ? { startedAt: batch.startedAt } : {}),
    ...(batch?.updatedAt ? { updatedAt: batch.updatedAt } : {}),
    rows,
    counts,
  };
}

/**
 * Every batch directory right under `runsDir` (one holding a batch journal), newest first.
 * @example for (const batch of listBatches("runs")) console.log(batch.name, batch.status);
 */
export function listBatches(runsDir: string): BatchSummary[] {
  if (!existsSync(runsDir)) return [];
  const batches: BatchSummary[] = [];
  for (const name of readdirSync(runsDir)) {
    const summary = readBatchSummary(runsDir, name);
    if (summary) batches.push(summary);
  }
  return batches.sort(
    (a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? "") || b.name.localeCompare(a.name),
  );
}
