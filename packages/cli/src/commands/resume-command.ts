import { access, readFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { resolveConnection } from "../config/connection.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";
import { isLoopback, isReachable } from "../services/reachable.js";
import { executeRun } from "./execute-run.js";
import { parsePositiveInteger } from "./option-parsers.js";
import { connectionOption } from "./run-command.js";

/** Flags of `reelsmith resume`. */
export interface ResumeFlags {
  baseUrl?: string;
  apiKey?: string;
  maxVideos?: number;
  json?: boolean;
  resubmitLost?: boolean;
}

/**
 * The pipeline file a resume will use, as the runner picks it: the file the run started from
 * when it still exists (the runner then refuses it if it changed), else the run's own copy.
 *
 * @example
 * const file = await pipelineOfRun("/work/runs/20260101-100000-storyboard");
 */
export async function pipelineOfRun(runDir: string): Promise<string> {
  const copy = path.join(runDir, "pipeline.yaml");
  try {
    await access(path.join(runDir, "journal.jsonl"));
    await access(copy);
  } catch {
    throw new UsageError(
      `${runDir} is not a reelsmith run directory (no journal.jsonl or pipeline.yaml)`,
      {
        code: "not_a_run_directory",
        hint: "pass a directory under runs/, as printed by `reelsmith run`",
      },
    );
  }
  try {
    const summary = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as {
      pipeline?: { path?: unknown };
    };
    const original = summary.pipeline?.path;
    if (typeof original === "string" && path.isAbsolute(original)) {
      await access(original);
      return original;
    }
  } catch {
    // No readable run.json or the original file is gone: the copy is what the runner uses.
  }
  return copy;
}

/**
 * The base URL a run recorded in its run.json, if any (the key is never recorded).
 *
 * @example
 * const baseURL = await recordedBaseURL(runDir);
 */
export async function recordedBaseURL(runDir: string): Promise<string | undefined> {
  try {
    const summary = JSON.parse(await readFile(path.join(runDir, "run.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const value = summary.baseURL ?? summary.baseUrl;
    return typeof value === "string" && value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `reelsmith resume RUN_DIR`: continue a stopped run without paying twice.
 *
 * @example
 * const code = await resumeCommand("runs/20260101-100000-storyboard", {}, context);
 */
export async function resumeCommand(
  runDir: string,
  flags: ResumeFlags,
  context: CliContext,
): Promise<number> {
  const absolute = path.resolve(context.cwd, runDir);
  const pipeline = await pipelineOfRun(absolute);
  const configured = resolveConnection(flags, context.env).baseURL;
  let baseUrl = flags.baseUrl;
  if (!configured) {
    const recorded = await recordedBaseURL(absolute);
    // A run made on the built-in simulator recorded a loopback URL that is gone by now: resume
    // on a new built-in simulator then (openService says so); otherwise keep the run's service.
    if (recorded && (!isLoopback(recorded) || (await isReachable(recorded)))) baseUrl = recorded;
  }
  return executeRun({ ...flags, baseUrl, pipeline, resume: absolute }, context);
}

/**
 * Declare `resume` on the program.
 *
 * @example
 * registerResumeCommand(program, context, (code) => (exitCode = code));
 */
export function registerResumeCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("resume")
    .summary("continue an interrupted or failed run")
    .description(
      "Continue a run stopped in any way (Ctrl-C, kill -9, a failure): finished steps and clips are reused, submitted video jobs are re-attached by id, failed items are retried.",
    )
    .argument("<run-dir>", "the run directory, e.g. runs/20260101-100000-storyboard")
    .addOption(
      connectionOption(
        "--base-url <url>",
        "service base URL (else the environment, else the one the run used)",
      ),
    )
    .addOption(
      connectionOption("--api-key <key>", "API key (else REELSMITH_API_KEY, OPENAI_API_KEY)"),
    )
    .option("--max-videos <n>", "video jobs in flight", parsePositiveInteger)
    .option("--json", "print NDJSON events on stdout")
    .option(
      "--resubmit-lost",
      "submit again video jobs the service no longer knows (404); each is a new, paid job",
    )
    .action(async (dir: string, flags: ResumeFlags) =>
      done(await resumeCommand(dir, flags, context)),
    );
}
