import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ResumeError } from "../errors/resume-error.js";
import { readJournal } from "../journal/journal.js";
import type { JournalRecord } from "../journal/journal-record.js";
import type { RunState } from "../journal/journal-state.js";
import { replayJournal } from "./replay-journal.js";
import { leftoverStaging, removeStaging } from "./run-directory.js";

/** A run directory as resuming reads it: its journal, its pipeline and its service. */
export interface RunOnDisk {
  runDir: string;
  /** The run's random id (part of its idempotency keys). */
  runId: string;
  /** The journal, replayed. */
  state: RunState;
  /** The journal's records as read (a resume goes on from them without reading it again). */
  records: readonly JournalRecord[];
  /** Its start record: the pipeline's hash and path, the inputs. */
  start: Record<string, unknown>;
  /**
   * The options it was started with, as its latest session left them (`RunOptions` that are
   * journaled, and what the caller kept with them, such as the CLI's notification targets).
   */
  options: Record<string, unknown>;
  /**
   * The pipeline file to resume with: the one the run started from while it still exists
   * (a resume refuses it if it changed), else the run's own copy.
   */
  pipelinePath: string;
  /** The service it ran on (never its key), when recorded. */
  baseURL?: string;
  /** It ran on a simulator started just for it (only such a run resumes on another one). */
  builtInService: boolean;
  startedAt?: string;
}

/**
 * Reads a run directory for a resume, with the rules every resume follows (the CLI's checks
 * and the runner's are this one function): a directory that never got its name was stopped
 * before its first request ("nothing_started", its staging removed); one without a journal
 * or a start record is not a run. Throws ResumeError saying which.
 * @example const run = inspectRun("runs/20260101-120000-storyboard"); run.pipelinePath;
 */
export function inspectRun(dir: string): RunOnDisk {
  const runDir = resolve(dir);
  const journalFile = join(runDir, "journal.jsonl");
  if (!existsSync(runDir)) {
    const staged = leftoverStaging(runDir);
    if (staged.length === 0) throw new ResumeError(runDir, "it does not exist", "not_a_run");
    // Killed before the directory got its name: no request was sent, nothing to continue.
    removeStaging(staged);
    throw new ResumeError(
      runDir,
      "nothing was started there (the run was stopped before its first request, so nothing was paid); start it again with `reelsmith run`",
      "nothing_started",
    );
  }
  if (!existsSync(journalFile)) {
    throw new ResumeError(
      runDir,
      "it is not a reelsmith run directory (no journal.jsonl); pass a directory under runs/, as printed by `reelsmith run`",
      "not_a_run",
    );
  }
  const records = readJournal(journalFile);
  const state = replayJournal(records);
  const start = state.start;
  if (!start) throw new ResumeError(runDir, "its journal has no run.start record", "not_a_run");
  const original = String(start.pipelinePath ?? "");
  const pipelinePath =
    original && original !== "<inline>" && existsSync(original)
      ? original
      : join(runDir, "pipeline.yaml");
  const summary = readRunJson(runDir);
  const baseURL = summary?.baseURL ?? summary?.baseUrl;
  return {
    runDir,
    runId: String(start.runId),
    state,
    records,
    start,
    options: state.options,
    pipelinePath,
    ...(typeof baseURL === "string" && baseURL ? { baseURL } : {}),
    builtInService: summary?.builtInService === true,
    ...(typeof summary?.startedAt === "string" ? { startedAt: summary.startedAt } : {}),
  };
}

/** run.json of a run directory, when it can be read. */
function readRunJson(runDir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(runDir, "run.json"), "utf8"));
  } catch {
    return undefined;
  }
}
