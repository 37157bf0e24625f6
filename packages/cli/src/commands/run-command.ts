import path from "node:path";
import { type Command, Option } from "commander";
import { collectInput, gatherInputs } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { UsageError } from "../errors/cli-error.js";
import { notifyOption } from "../notify/notify-options.js";
import type { RunNotifier } from "../notify/run-notifier.js";
import { autoApprove } from "./approval-options.js";
import { type ClosedOutputChoice, closedOutputOption } from "./closed-output-option.js";
import { parsePositiveInteger } from "./option-parsers.js";

/** Flags of `reelsmith run`, as commander parses them. */
export interface RunFlags {
  input?: string[];
  inputs?: string;
  runDir?: string;
  concurrency?: number;
  maxVideos?: number;
  maxCredits?: number;
  allowPartial?: boolean;
  cache: boolean;
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  database?: string;
  detach?: boolean;
  artifacts?: string;
  account?: string;
  accountBudget?: number;
  requestsPerMinute?: number;
  notify?: string[];
  autoApprove?: boolean;
  /** `--on-closed-output`: stop (default) or continue when stdout or stderr is closed. */
  onClosedOutput?: ClosedOutputChoice;
}

/**
 * `reelsmith run FILE`: gather inputs, then run the pipeline.
 *
 * @example
 * const code = await runCommand("pipeline.yaml", { cache: true, input: ["scenes=2"] }, context);
 */
export async function runCommand(
  file: string,
  flags: RunFlags,
  context: CliContext,
): Promise<number> {
  if (flags.detach && flags.notify?.length) {
    throw new UsageError(
      "--notify needs a process that sees the run end; --detach returns at once",
      {
        code: "notify_with_detach",
        hint: "follow the run (drop --detach) to be notified, or watch it with `reelsmith status`",
      },
    );
  }
  // Checked first: a bad notify setting is a usage error before anything runs.
  const notifier = flags.detach
    ? undefined
    : (await import("../notify/command-notifier.js")).commandNotifier(flags, context, {
        path: path.resolve(context.cwd, file),
      });
  try {
    return await startRun(file, flags, context, notifier);
  } catch (error) {
    // A run that could not start (or broke off) is notified as failed; the error is still
    // reported as usual.
    await notifier?.failed(error);
    throw error;
  }
}

async function startRun(
  file: string,
  flags: RunFlags,
  context: CliContext,
  notifier: RunNotifier | undefined,
): Promise<number> {
  const inputs = await gatherInputs(flags, context.cwd);
  const database = databaseUrl(flags, context);
  const approveAll = autoApprove(flags, context) ? { autoApprove: true } : {};
  if (database) {
    // Loaded on use: DBOS and the database client are needed only with --database.
    const { executeDistributedRun } = await import("../distributed/execute-distributed-run.js");
    return executeDistributedRun(
      {
        ...flags,
        database,
        pipeline: file,
        inputs,
        cache: flags.cache,
        ...approveAll,
        ...(notifier ? { notifier } : {}),
      },
      context,
    );
  }
  if (flags.detach) {
    throw new UsageError(
      "--detach needs --database: only a queued run goes on without this process",
      {
        code: "detach_needs_database",
        hint: "add --database postgres://… (or set REELSMITH_DATABASE_URL), or run without --detach",
      },
    );
  }
  // Loaded on use: the runner, the renderers and the service client are not needed before.
  const { executeRun } = await import("./execute-run.js");
  return executeRun(
    {
      ...flags,
      ...approveAll,
      pipeline: file,
      inputs,
      cache: flags.cache,
      ...(notifier ? { notifier } : {}),
    },
    context,
  );
}

/**
 * Declare `run` on the program.
 *
 * @example
 * registerRunCommand(program, context, (code) => (exitCode = code));
 */
export function registerRunCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("run")
    .summary("run a pipeline")
    .description(
      "Run a pipeline file. Without a configured service (REELSMITH_BASE_URL, or service.base_url in the provider profile) the built-in simulator is used. A run that reaches a gate (`approve:` step) without a decision stops there and exits 4: approve it with `reelsmith approve`, then `reelsmith resume`.",
    )
    .argument("<file>", "pipeline YAML file")
    .option("--input <key=value>", "set an input (repeatable)", collectInput, [])
    .option("--inputs <file>", "read inputs from a JSON or YAML file")
    .option("--run-dir <dir>", "run directory (default runs/<time>-<name>)")
    .option("--concurrency <n>", "steps and items in flight (default 8)", parsePositiveInteger)
    .option("--max-videos <n>", "video jobs in flight (default 4)", parsePositiveInteger)
    .option(
      "--max-credits <n>",
      "stop submitting video jobs past this budget",
      parsePositiveInteger,
    )
    .option("--no-cache", "do not reuse or store cached results")
    .option(
      "--auto-approve",
      "approve every gate (`approve:` step) as the run reaches it, by 'auto' (else REELSMITH_AUTO_APPROVE=1)",
    )
    .option(
      "--allow-partial",
      "let a fan-out start even when the budget cannot pay for all of its items (it makes what fits)",
    )
    .option("--json", "print NDJSON events on stdout")
    .addOption(closedOutputOption())
    .addOption(notifyOption())
    .addOption(databaseOption())
    .option("--detach", "with --database: print the run id and return; workers run it")
    .option("--artifacts <dir>", "with --database: directory every worker shares (default runs)")
    .option("--account <name>", "with --database: the service account whose limits apply")
    .option(
      "--account-budget <n>",
      "with --database: credits the whole account may spend, across runs",
      parsePositiveInteger,
    )
    .option(
      "--requests-per-minute <n>",
      "with --database: paid requests per minute, account-wide",
      parsePositiveInteger,
    )
    .addOption(serviceOptions.baseUrl())
    .addOption(serviceOptions.apiKey())
    .addHelpText(
      "after",
      "\nExamples:\n  reelsmith run examples/storyboard/pipeline.yaml --input scenes=4\n  reelsmith run pipeline.yaml --json > events.ndjson\n  reelsmith run pipeline.yaml --notify https://hooks.example.com/reelsmith\n\nNotifications: --notify URLs and REELSMITH_NOTIFY (comma-separated) get a JSON summary when the run\nends, signed with REELSMITH_NOTIFY_SECRET (header X-Reelsmith-Signature: t=<unix>,v1=<hmac>), retried\nfor at most REELSMITH_NOTIFY_TIMEOUT seconds (default 10); they never change the exit code.",
    )
    .action(async (file: string, flags: RunFlags) => done(await runCommand(file, flags, context)));
}

/**
 * A `--base-url`/`--api-key` option (shared by run, resume and models).
 *
 * @example
 * command.addOption(connectionOption("--api-key <key>", "API key"));
 */
export function connectionOption(flags: string, description: string): Option {
  return new Option(flags, description);
}

/**
 * The service flags of a command that starts runs (`--base-url`, `--api-key`), each saying
 * where the value comes from when it is left out.
 * @example program.command("run").addOption(serviceOptions.baseUrl()).addOption(serviceOptions.apiKey());
 */
export const serviceOptions = {
  baseUrl: () =>
    connectionOption(
      "--base-url <url>",
      "service base URL (else REELSMITH_BASE_URL, the profile's base_url, OPENAI_BASE_URL)",
    ),
  apiKey: () =>
    connectionOption(
      "--api-key <key>",
      "API key (else REELSMITH_API_KEY, the profile's api_key_env, OPENAI_API_KEY)",
    ),
};
