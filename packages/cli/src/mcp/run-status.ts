import { existsSync, readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { replayJournal } from "@reelsmith/runner/internal";
import { gatesOf, ledgerOf, readJournal } from "@reelsmith/runner/runs";
import type { RunSession, RunSessions } from "./run-sessions.js";
import { RefusalError } from "./tool-result.js";

/** Where a run stands, as its journal, ledger, events and run.json say. */
export interface RunStatus {
  runId: string;
  runDir: string;
  name?: string;
  /**
   * `running` while a process drives it (this server, or another holding its run.lock);
   * else how it last ended (`succeeded`, `failed`, `waiting`, `budget_reached`, `rejected`,
   * `cancelled`), or `interrupted` when it never ended (a killed process).
   */
  status: string;
  /** True when this server drives it now (`cancel` can stop it). */
  drivenHere: boolean;
  steps: { id: string; status: string; succeeded: number; failed: number; running: number }[];
  /** Credits spent, from the ledger. */
  spent: number;
  savedCredits: number;
  jobsSubmitted: number;
  /** The estimate made before its first paid request, and the budget it ran with. */
  estimate?: { credits: number; complete: boolean; creditsAtMost?: number };
  budget?: number;
  /** The gates it waits at, with what approving starts and costs when the run said so. */
  waitingAt: { step: string; message: string; since?: string; deadline?: string }[];
  approvingCosts?: { credits: number; complete: boolean; creditsAtMost?: number };
  gates: { step: string; state: string; by?: string; at?: string; note?: string }[];
  outputs?: Record<string, unknown>;
  /** The final video's absolute path (the `video` output), once it exists. */
  video?: string;
  report?: string;
  error?: { code?: string; message: string };
  /** The last lines the run printed, when this server ran it. */
  notes: string[];
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The events of a run's events.ndjson (lines that do not parse are skipped). */
function readEvents(runDir: string): { type: string; [field: string]: unknown }[] {
  const file = path.join(runDir, "events.ndjson");
  if (!existsSync(file)) return [];
  const events: { type: string; [field: string]: unknown }[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // A line being written: the next read has it.
    }
  }
  return events;
}

/** True when another live process on this host holds the run's lock. */
function lockedElsewhere(runDir: string): boolean {
  const owner = readJson(path.join(runDir, "run.lock"));
  if (!owner || typeof owner.pid !== "number") return false;
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The run directory a tool's `run` argument names: a directory (absolute, or relative to the
 * server's directory), or a run id this server started or found under `runs/`.
 * @example resolveRunDir("20260101-120000-storyboard-3f2a", sessions, cwd)
 */
export function resolveRunDir(
  run: string,
  sessions: RunSessions,
  cwd: string,
  options: { batches?: boolean } = {},
): string {
  const asDir = path.resolve(cwd, run);
  if (existsSync(path.join(asDir, "journal.jsonl"))) return asDir;
  // A batch directory, where the tool reads batches too (status, cancel).
  if (options.batches && existsSync(path.join(asDir, "batch.jsonl"))) return asDir;
  const session = sessions.find({ runId: run });
  if (session?.runDir && (options.batches || session.kind !== "batch")) return session.runDir;
  const runs = path.join(cwd, "runs");
  if (existsSync(runs)) {
    for (const name of readdirSync(runs)) {
      const summary = readJson(path.join(runs, name, "run.json"));
      if (summary?.runId === run) return path.join(runs, name);
    }
  }
  throw new RefusalError({
    code: "not_a_run",
    message: `${run} is neither a run directory nor the id of a run under ${runs}`,
    hint: "pass the runDir a `run` call returned (or a directory under runs/)",
    alternatives: [{ tool: "status", arguments: {}, why: "lists the runs this server knows" }],
  });
}

/**
 * Read where a run stands from its files (so a run started from a terminal can be watched
 * too), with what this server knows of it when it drives it.
 * @example const status = readRunStatus("/work/runs/20260101-120000-storyboard", session);
 */
export function readRunStatus(runDir: string, session?: RunSession): RunStatus {
  const records = readJournal(path.join(runDir, "journal.jsonl"));
  const state = replayJournal(records);
  const ledger = ledgerOf(records);
  const summary = readJson(path.join(runDir, "run.json")) ?? {};
  const events = readEvents(runDir);
  const lastOf = (type: string) => events.findLast((event) => event.type === type);
  const drivenHere = session?.state === "running";
  const ended = state.ended?.status;
  const status =
    drivenHere || lockedElsewhere(runDir)
      ? "running"
      : typeof ended === "string"
        ? ended
        : "interrupted";
  const steps = [...state.steps.entries()].map(([id, step]) => {
    const items = [...step.items.entries()].filter(
      ([index]) => index >= 0 || step.items.size === 1,
    );
    // A step's single unit (no index) has no item.end of its own: its step's end settles it.
    const statusOf = (index: number, item: { status: string }) =>
      index < 0 && step.status !== "running" ? step.status : item.status;
    const count = (wanted: string) =>
      items.filter(([index, item]) => statusOf(index, item) === wanted).length;
    return {
      id,
      status: step.status,
      succeeded: count("succeeded"),
      failed: count("failed"),
      running: count("running"),
    };
  });
  const gates = gatesOf(state);
  // The whole run's estimate as its latest session knew it (a take's own left out).
  const estimateEvent = events.findLast(
    (event) => event.type === "run.estimate" && event.of !== "take",
  ) as
    | {
        estimate?: { credits: number; complete: boolean; creditsAtMost?: number };
        maxCredits?: number;
      }
    | undefined;
  const waiting =
    status === "waiting" ? (lastOf("run.waiting") as Record<string, unknown>) : undefined;
  const behind = waiting?.next as
    | { credits?: number; complete?: boolean; creditsAtMost?: number }
    | undefined;
  const outputs = summary.outputs as Record<string, unknown> | undefined;
  const videoOutput = typeof outputs?.video === "string" ? outputs.video : undefined;
  const video = videoOutput ? path.resolve(runDir, videoOutput) : undefined;
  const report = path.join(runDir, "report.html");
  const error = summary.error as { code?: string; message?: string } | undefined;
  const budget = estimateEvent?.maxCredits ?? state.start?.maxCredits;
  return {
    runId: String(state.start?.runId ?? summary.runId ?? path.basename(runDir)),
    runDir,
    ...(typeof summary.name === "string" ? { name: summary.name } : {}),
    status,
    drivenHere,
    steps,
    spent: ledger.total.credits,
    savedCredits: ledger.total.savedCredits,
    jobsSubmitted: ledger.total.jobsSubmitted,
    ...(estimateEvent?.estimate
      ? {
          estimate: {
            credits: estimateEvent.estimate.credits,
            complete: estimateEvent.estimate.complete,
            ...(estimateEvent.estimate.creditsAtMost === undefined
              ? {}
              : { creditsAtMost: estimateEvent.estimate.creditsAtMost }),
          },
        }
      : {}),
    ...(typeof budget === "number" ? { budget } : {}),
    waitingAt: gates
      .filter((gate) => gate.state === "waiting")
      .map((gate) => ({
        step: gate.step,
        message: gate.message,
        ...(gate.since ? { since: gate.since } : {}),
        ...(gate.deadline ? { deadline: gate.deadline } : {}),
      })),
    ...(behind && typeof behind.credits === "number"
      ? {
          approvingCosts: {
            credits: behind.credits,
            complete: behind.complete === true,
            ...(typeof behind.creditsAtMost === "number"
              ? { creditsAtMost: behind.creditsAtMost }
              : {}),
          },
        }
      : {}),
    gates: gates.map((gate) => ({
      step: gate.step,
      state: gate.state,
      ...(gate.decision
        ? {
            by: gate.decision.by,
            at: gate.decision.at,
            ...(gate.decision.note ? { note: gate.decision.note } : {}),
          }
        : {}),
    })),
    ...(outputs && status !== "running" ? { outputs } : {}),
    ...(video && status !== "running" && existsSync(video) ? { video } : {}),
    ...(existsSync(report) ? { report } : {}),
    ...(error?.message && status !== "running"
      ? { error: { ...(error.code ? { code: error.code } : {}), message: error.message } }
      : {}),
    notes: session ? session.notes.slice(-10) : [],
  };
}
