import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { ResumeError } from "../errors/resume-error.js";
import { writeJsonAtomic } from "../executor/run-directory.js";

/** How a row of a batch stands. */
export type BatchRowStatus =
  | "pending"
  | "running"
  | "succeeded"
  | "failed"
  | "budget_reached"
  | "waiting"
  | "cancelled";

/** What the batch journal says of one row. */
export interface BatchRowState {
  id: string;
  line: number;
  status: BatchRowStatus;
  /** The row's run directory, relative to the batch directory (once it was started). */
  runDir?: string;
  /** The row's run id, when its host names runs (a run on the workers of a database). */
  runId?: string;
  /** Credits the row's run spent in all (its ledger). */
  credits: number;
  durationMs?: number;
  /**
   * The row's final video, the first video its run's outputs name: relative to the batch
   * directory (absolute in batches of older versions; read it with {@link batchPath}).
   */
  final?: string;
  /** Why it did not succeed, in one line. */
  error?: string;
}

/** The options a batch keeps, so its resume runs it as it was started unless told. */
export interface BatchKept {
  maxCredits?: number;
  parallel?: number;
  allowPartial?: boolean;
  autoApprove?: boolean;
  cache?: boolean;
  concurrency?: number;
  slots?: Record<string, number>;
  accountLimits?: Record<string, number>;
}

/** One line of `batch.jsonl`. */
export type BatchRecord =
  | {
      type: "batch.start";
      at: string;
      batchId: string;
      name: string;
      /** The pipeline, its path relative to the batch directory (see {@link batchPath}). */
      pipeline: { path: string; hash: string };
      /** The inputs file, relative to the batch directory. */
      inputsFile: string;
      options: BatchKept;
      baseURL?: string;
      builtInService?: boolean;
      /** The name of the host the rows run on, when not this process (e.g. "database"). */
      rowHost?: string;
    }
  | { type: "batch.resume"; at: string; options: BatchKept }
  | { type: "row.start"; at: string; id: string; line: number; runDir: string; runId?: string }
  | {
      type: "row.end";
      at: string;
      id: string;
      status: BatchRowStatus;
      credits: number;
      durationMs: number;
      final?: string;
      error?: string;
    }
  | { type: "row.skipped"; at: string; id: string; line: number; reason: "budget"; error: string }
  | { type: "batch.end"; at: string; status: BatchStatus; credits: number };

/** How a batch ended. */
export type BatchStatus = "succeeded" | "failed" | "budget_reached" | "waiting" | "cancelled";

/** `batch.json`: what the batch is and where each row stands (rewritten after every row). */
export interface BatchJson {
  batchId: string;
  name: string;
  pipeline: { path: string; hash: string };
  inputsFile: string;
  options: BatchKept;
  baseURL?: string;
  builtInService?: boolean;
  /** The host the rows run on, when not the batch's own process (e.g. "database"). */
  rowHost?: string;
  startedAt: string;
  updatedAt: string;
  status: BatchStatus | "running";
  credits: number;
  rows: BatchRowState[];
}

/**
 * A path a batch keeps (relative to its directory, so that the directory can be moved with
 * what it names) as an absolute one; an absolute one (older batches) is kept as it is.
 * @example batchPath("/ci/runs/20260101-120000-storyboard-batch", "../../stories.csv") // "/ci/stories.csv"
 */
export function batchPath(batchDir: string, kept: string): string {
  return isAbsolute(kept) ? kept : resolve(batchDir, kept);
}

/** The batch journal's file name in a batch directory. */
export const BATCH_JOURNAL = "batch.jsonl";
/** The batch's summary file in a batch directory. */
export const BATCH_JSON = "batch.json";

/**
 * The append-only batch journal: each record is written and fsync'd before the batch acts on
 * it (a row's run directory is on disk before its run starts).
 * @example const journal = openBatchJournal(dir); journal.append({ type: "row.start", … }); journal.close();
 */
export function openBatchJournal(batchDir: string) {
  const fd = openSync(join(batchDir, BATCH_JOURNAL), "a");
  return {
    append(record: BatchRecord): void {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    },
    close(): void {
      closeSync(fd);
    },
  };
}

/** A batch journal's records; a last line cut short by a kill is left out. */
export function readBatchJournal(batchDir: string): BatchRecord[] {
  const file = join(batchDir, BATCH_JOURNAL);
  if (!existsSync(file)) throw new ResumeError(batchDir, `no ${BATCH_JOURNAL}: not a batch`);
  const records: BatchRecord[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line) as BatchRecord);
    } catch {
      // Only the last line can be torn (each is fsync'd before the next is written).
    }
  }
  const start = records[0];
  if (start?.type !== "batch.start")
    throw new ResumeError(batchDir, `${BATCH_JOURNAL} does not begin with batch.start`);
  return records;
}

/** Where each row stands, from the journal's records (the last word on a row wins). */
export function foldBatch(records: readonly BatchRecord[]): Map<string, BatchRowState> {
  const rows = new Map<string, BatchRowState>();
  for (const record of records) {
    if (record.type === "row.start") {
      const before = rows.get(record.id);
      rows.set(record.id, {
        id: record.id,
        line: record.line,
        status: "running",
        runDir: record.runDir,
        ...(record.runId ? { runId: record.runId } : {}),
        credits: before?.credits ?? 0,
      });
    } else if (record.type === "row.end") {
      const row = rows.get(record.id);
      if (!row) continue;
      row.status = record.status;
      row.credits = record.credits;
      row.durationMs = record.durationMs;
      if (record.final) row.final = record.final;
      else delete row.final;
      if (record.error) row.error = record.error;
      else delete row.error;
    } else if (record.type === "row.skipped") {
      const row = rows.get(record.id);
      rows.set(record.id, {
        ...(row ?? { id: record.id, line: record.line, credits: 0 }),
        status: "budget_reached",
        error: record.error,
      });
    }
  }
  return rows;
}

/**
 * Writes `batch.json` atomically.
 * @example await writeBatchJson(dir, summary);
 */
export async function writeBatchJson(batchDir: string, summary: BatchJson): Promise<void> {
  await writeJsonAtomic(join(batchDir, BATCH_JSON), summary);
}

/**
 * Reads `batch.json` of a batch directory, or undefined when there is none.
 * @example const batch = readBatchJson("runs/20260101-120000-storyboard-batch");
 */
export function readBatchJson(batchDir: string): BatchJson | undefined {
  const file = join(batchDir, BATCH_JSON);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as BatchJson;
}

/**
 * True when `dir` is a batch directory (it holds a batch journal).
 * @example if (isBatchDirectory(dir)) await resumeBatch(dir, options);
 */
export function isBatchDirectory(dir: string): boolean {
  return existsSync(join(dir, BATCH_JOURNAL));
}
