import path from "node:path";
import type { Command } from "commander";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { CliError } from "../errors/cli-error.js";
import { notifyOption } from "../notify/notify-options.js";
import type { RunNotifier } from "../notify/run-notifier.js";
import { isReachable } from "../services/reachable.js";
import { autoApprove } from "./approval-options.js";
import { type ClosedOutputChoice, closedOutputOption } from "./closed-output-option.js";
import { parsePositiveInteger } from "./option-parsers.js";
import { connectionOption } from "./run-command.js";

/** Flags of `reelsmith resume`. */
export interface ResumeFlags {
  baseUrl?: string;
  apiKey?: string;
  maxVideos?: number;
  maxCredits?: number;
  allowPartial?: boolean;
  json?: boolean;
  resubmitLost?: boolean;
  database?: string;
  notify?: string[];
  autoApprove?: boolean;
  /** `--on-closed-output`: stop (default) or continue when stdout or stderr is closed. */
  onClosedOutput?: ClosedOutputChoice;
}

/**
 * `reelsmith resume RUN_DIR`: continue a stopped run without paying twice, on the service it
 * started with. A run begun on the built-in simulator resumes on a new built-in one; any
 * other run resumes on its recorded base URL (or `--base-url` when the service moved) and
 * never on the simulator; an unreachable service fails before the journal is touched.
 *
 * @example
 * const code = await resumeCommand("runs/20260101-100000-storyboard", {}, context);
 */
export async function resumeCommand(
  runDir: string,
  flags: ResumeFlags,
  context: CliContext,
): Promise<number> {
  const database = databaseUrl(flags, context);
  // Checked first: a bad notify setting is a usage error before anything runs.
  const { commandNotifier } = await import("../notify/command-notifier.js");
  const notifier = commandNotifier(flags, context, {});
  try {
    return await startResume(runDir, flags, context, database, notifier);
  } catch (error) {
    // A resume that could not start (or broke off) is notified as failed, then reported.
    await notifier?.failed(error);
    throw error;
  }
}

async function startResume(
  runDir: string,
  flags: ResumeFlags,
  context: CliContext,
  database: string | undefined,
  notifier: RunNotifier | undefined,
): Promise<number> {
  const withNotifier = {
    ...(notifier ? { notifier } : {}),
    ...(autoApprove(flags, context) ? { autoApprove: true } : {}),
  };
  const absolute = path.resolve(context.cwd, runDir);
  const { isBatchDirectory, readBatchJson } = await import("@reelsmith/runner/batch");
  if (isBatchDirectory(absolute)) {
    // A batch: its finished rows are kept, the others resumed (or followed on the workers,
    // with --database), new rows of its file run.
    const { executeBatch } = await import("./execute-batch.js");
    const batch = readBatchJson(absolute);
    return executeBatch(
      {
        ...flags,
        resume: absolute,
        ...(database ? { database } : {}),
        ...(batch?.builtInService && !flags.baseUrl ? { builtIn: true } : {}),
        ...(batch?.baseURL && !flags.baseUrl ? { baseUrl: batch.baseURL } : {}),
        ...(autoApprove(flags, context) ? { autoApprove: true } : {}),
      },
      context,
    );
  }
  if (database) {
    if (flags.maxCredits !== undefined)
      throw new CliError("--max-credits cannot change a distributed run's budget on resume", {
        code: "usage",
        category: "usage",
        hint: "its budget lives in the database with the run; submit it again with the new --max-credits",
      });
    // With the shared database the argument is the run's id.
    const { executeDistributedRun } = await import("../distributed/execute-distributed-run.js");
    return executeDistributedRun(
      { database, resumeRunId: runDir, ...(flags.json ? { json: true } : {}), ...withNotifier },
      context,
    );
  }
  // The runner's own reading of the run (its rules: nothing started, not a run, which
  // pipeline file, which service); ResumeError says which, exit 2.
  const { refuseDatabaseRunDirectory } = await import("../distributed/database-run-directory.js");
  refuseDatabaseRunDirectory(absolute, "resume");
  const { inspectRun } = await import("@reelsmith/runner/runs");
  const recorded = inspectRun(absolute);
  const pipeline = recorded.pipelinePath;
  notifier?.pipeline({ path: pipeline });
  // Loaded on use: the runner, the renderers and the service client are not needed before.
  const { executeRun } = await import("./execute-run.js");
  if (recorded.builtInService && !flags.baseUrl) {
    return executeRun(
      { ...flags, pipeline, resume: absolute, builtIn: true, ...withNotifier },
      context,
    );
  }
  const baseUrl =
    flags.baseUrl ?? recorded.baseURL ?? (await resolveService(flags, context)).connection.baseURL;
  if (!baseUrl) {
    throw new CliError(`${runDir} recorded no service, and none is configured`, {
      code: "no_service",
      hint: "pass the service the run used with --base-url (or set REELSMITH_BASE_URL)",
    });
  }
  if (!(await isReachable(baseUrl, 5000))) {
    throw new CliError(
      `the run's service at ${baseUrl} cannot be reached; nothing was changed in ${runDir}`,
      {
        code: "service_unreachable",
        hint: "a run keeps the service it started with (its jobs are there): start or reach that service and resume again, or pass --base-url if it moved",
      },
    );
  }
  return executeRun({ ...flags, baseUrl, pipeline, resume: absolute, ...withNotifier }, context);
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
      "Continue a run stopped in any way (Ctrl-C, kill -9, a failure, a gate): finished steps and clips are reused, submitted video jobs are re-attached by id, failed items are retried, decided gates go on (approved) or end the run (rejected).",
    )
    .argument(
      "<run-dir>",
      "the run directory, e.g. runs/20260101-100000-storyboard, or a batch directory (with --database: the run id)",
    )
    .addOption(databaseOption())
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
    .option(
      "--max-credits <n>",
      "the run's credit budget from now on (what it spent counts; else the one it started with)",
      parsePositiveInteger,
    )
    .option(
      "--allow-partial",
      "let a fan-out start even when the budget cannot pay for all of its items (it makes what fits)",
    )
    .option("--json", "print NDJSON events on stdout")
    .addOption(closedOutputOption())
    .addOption(notifyOption())
    .option(
      "--auto-approve",
      "approve every gate (`approve:` step) the run reaches, by 'auto' (else REELSMITH_AUTO_APPROVE=1)",
    )
    .option(
      "--resubmit-lost",
      "submit again video jobs the service no longer knows (404); each is a new, paid job",
    )
    .action(async (dir: string, flags: ResumeFlags) =>
      done(await resumeCommand(dir, flags, context)),
    );
}
