import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { formatSummary } from "./format-summary.js";
import { digestRun, parseEvents, type RunDigest } from "./run-digest.js";
import { splitOutputs, videoOutput } from "./run-outputs.js";

/** What {@link summarizeRun} reads. */
export interface SummarizeRunOptions {
  /** The run directory, when the run started (absolute or relative to `workspace`). */
  runDir?: string;
  /** The CLI's `--json` output: used when the run directory has no events.ndjson. */
  eventsFile?: string;
  /** The CLI's stderr, shown when the run did not end. */
  stderrFile?: string;
  /** The CLI's exit code; empty or missing means it did not run. */
  exitCode?: string;
  pipeline: string;
  workspace: string;
  artifact?: { name: string; url?: string };
  /** The doctor step's outcome (`failure` explains a run that did not start). */
  doctorOutcome?: string;
}

/** The summary's Markdown, the action's outputs and the exit code to end with. */
export interface RunSummary {
  markdown: string;
  outputs: { status: string; "run-dir": string; video: string; credits: string; report: string };
  exitCode: number;
}

/**
 * The status the action reports: the run's (`succeeded`, `failed`, …), `budget_reached` for a
 * failure the credit budget caused, `interrupted` for a run stopped by a signal (a cancelled
 * job), `not_started` when no run began.
 *
 * @example
 * actionStatus(digest, 0); // "succeeded"
 */
export function actionStatus(digest: RunDigest, exitCode: number): string {
  if (!digest.status) {
    if (!digest.runDir) return "not_started";
    return exitCode === 130 ? "interrupted" : "failed";
  }
  if (digest.status === "cancelled") return "interrupted";
  if (
    digest.status === "failed" &&
    (digest.budgetReached || digest.error?.code === "budget_reached")
  )
    return "budget_reached";
  return digest.status;
}

function read(file: string | undefined): string {
  if (!file) return "";
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * Read a run (its run.json and events.ndjson, or the CLI's events) and make the job summary
 * and the outputs. Never throws for a missing or partial run: a run that did not start
 * gets a summary that says so.
 *
 * @example
 * const { markdown, outputs, exitCode } = summarizeRun({ runDir, exitCode: "0", pipeline, workspace });
 */
export function summarizeRun(options: SummarizeRunOptions): RunSummary {
  const runDir = options.runDir ? path.resolve(options.workspace, options.runDir) : undefined;
  let runJson: Record<string, unknown> = {};
  try {
    if (runDir) runJson = JSON.parse(read(path.join(runDir, "run.json")) || "{}");
  } catch {
    runJson = {};
  }
  const logged = runDir ? read(path.join(runDir, "events.ndjson")) : "";
  const events = parseEvents(logged || read(options.eventsFile));
  const digest = digestRun(events, runJson);
  if (runDir) digest.runDir ??= runDir;
  const parsedExit = Number.parseInt(options.exitCode ?? "", 10);
  const exitCode = Number.isNaN(parsedExit) ? 1 : parsedExit;
  const status = actionStatus(digest, exitCode);
  const outputs = splitOutputs(digest.outputs, digest.runDir);
  const report =
    digest.runDir && existsSync(path.join(digest.runDir, "report.html"))
      ? path.join(digest.runDir, "report.html")
      : undefined;
  let stderrTail = read(options.stderrFile).split("\n").slice(-20).join("\n");
  if (!stderrTail.trim() && status === "not_started" && options.doctorOutcome === "failure") {
    stderrTail =
      "reelsmith doctor found a problem, so the pipeline did not run: see the step 'Check ffmpeg and the service' in the log.";
  }
  const markdown = formatSummary(digest, {
    status,
    exitCode,
    pipeline: options.pipeline,
    workspace: options.workspace,
    outputs,
    ...(report ? { report } : {}),
    ...(options.artifact && digest.runDir ? { artifact: options.artifact } : {}),
    ...(stderrTail ? { stderrTail } : {}),
  });
  return {
    markdown,
    outputs: {
      status,
      "run-dir": digest.runDir ?? "",
      video: videoOutput(outputs)?.file ?? "",
      credits: digest.credits === undefined ? "" : String(digest.credits),
      report: report ?? "",
    },
    // A run that ended fine but whose exit code is unknown cannot pass the job.
    exitCode: Number.isNaN(parsedExit) && status !== "succeeded" ? 1 : exitCode,
  };
}
