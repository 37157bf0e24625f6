import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RunEvent } from "@reelsmith/runner";
import { type RunState, replayJournal } from "@reelsmith/runner/internal";
import { type JournalRecord, readEventLog, readJournal } from "@reelsmith/runner/runs";

/** `run.json` as the runner writes it (every field optional: a run may still be going). */
export interface RunJson {
  runId?: string;
  name?: string;
  status?: string;
  pipeline?: { path?: string; hash?: string };
  baseURL?: string;
  /** True when the run used the CLI's built-in simulator (offline, synthetic clips). */
  builtInService?: boolean;
  inputs?: Record<string, unknown>;
  startedAt?: string;
  resumedAt?: string;
  endedAt?: string;
  totals?: Record<string, number>;
  outputs?: Record<string, unknown>;
  error?: { name?: string; message?: string; code?: string; [field: string]: unknown };
}

/** Everything a run directory says about its run. */
export interface RunRecord {
  runDir: string;
  runJson: RunJson;
  journal: JournalRecord[];
  state: RunState;
  events: RunEvent[];
  /** The pipeline as run (`pipeline.yaml` in the run directory), if present. */
  pipelineSource?: string;
  /** True while a process drives the run (`run.lock` is present). */
  locked: boolean;
  /** Sub-pipeline runs started by tools (`subruns/<step>-<tool>-<n>/`). */
  subRuns: { dir: string; name: string; runJson: RunJson }[];
}

/** Thrown when a directory is not a run directory. */
export class NotARunDirectoryError extends Error {
  readonly code = "not_a_run_directory";
  constructor(readonly runDir: string) {
    super(
      `${runDir} is not a run directory (it has no run.json or journal.jsonl); give a directory under runs/, e.g. reelsmith report runs/20260101-120000-storyboard`,
    );
    this.name = "NotARunDirectoryError";
  }
}

function readJson(file: string): RunJson | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as RunJson;
  } catch {
    return undefined;
  }
}

/**
 * Reads a run directory through the runner's readers: run.json, the journal (replayed), the
 * event log, the pipeline copy and the sub-runs. Works on a run still in progress.
 * @example const record = readRun("runs/20260101-120000-storyboard");
 */
export function readRun(runDirectory: string): RunRecord {
  const runDir = resolve(runDirectory);
  const journalFile = join(runDir, "journal.jsonl");
  const runJson = readJson(join(runDir, "run.json"));
  if (!runJson && !existsSync(journalFile)) throw new NotARunDirectoryError(runDir);
  const journal = existsSync(journalFile) ? readJournal(journalFile) : [];
  const pipelineFile = join(runDir, "pipeline.yaml");
  const subRoot = join(runDir, "subruns");
  const subRuns: RunRecord["subRuns"] = [];
  if (existsSync(subRoot)) {
    for (const name of readdirSync(subRoot).sort(naturalOrder)) {
      const dir = join(subRoot, name);
      if (!statSync(dir).isDirectory()) continue;
      subRuns.push({ dir, name, runJson: readJson(join(dir, "run.json")) ?? {} });
    }
  }
  return {
    runDir,
    runJson: runJson ?? {},
    journal,
    state: replayJournal(journal),
    events: readEventLog(join(runDir, "events.ndjson")),
    ...(existsSync(pipelineFile) ? { pipelineSource: readFileSync(pipelineFile, "utf8") } : {}),
    locked: existsSync(join(runDir, "run.lock")),
    subRuns,
  };
}

/** Sorts "a-2" before "a-10". */
export function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}
