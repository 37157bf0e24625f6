import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { parsePositiveInteger } from "./option-parsers.js";
import { serviceOptions } from "./run-command.js";

/** Flags of `reelsmith batch`. */
export interface BatchFlags {
  inputs: string;
  parallel?: number;
  plan?: boolean;
  concurrency?: number;
  maxVideos?: number;
  maxCredits?: number;
  allowPartial?: boolean;
  cache: boolean;
  autoApprove?: boolean;
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  /** `--no-service` of `--plan`: ask no service for prices. */
  service?: boolean;
  database?: string;
  artifacts?: string;
}

/**
 * `reelsmith batch FILE --inputs rows.csv`: one run per row, checked and estimated before
 * anything is paid; `--plan` prints the estimate and stops.
 *
 * @example
 * const code = await batchCommand("pipeline.yaml", { inputs: "rows.csv", cache: true }, context);
 */
export async function batchCommand(
  file: string,
  flags: BatchFlags,
  context: CliContext,
): Promise<number> {
  const database = databaseUrl(flags, context);
  if (flags.plan) {
    const { planBatchCommand } = await import("./batch-plan.js");
    return planBatchCommand(
      file,
      flags.inputs,
      {
        json: flags.json ?? false,
        service: flags.service !== false,
        cache: flags.cache !== false,
        // Rows run by workers use the database's cache: the plan reads it there.
        ...(database ? { database } : {}),
        ...(flags.artifacts ? { artifacts: flags.artifacts } : {}),
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
      },
      context,
    );
  }
  const { executeBatch } = await import("./execute-batch.js");
  return executeBatch(
    {
      pipeline: path.resolve(context.cwd, file),
      inputsFile: path.resolve(context.cwd, flags.inputs),
      ...flags,
      ...(database ? { database } : {}),
    },
    context,
  );
}

/**
 * Declare `batch` on the program.
 *
 * @example
 * registerBatchCommand(program, context, (code) => (exitCode = code));
 */
export function registerBatchCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("batch")
    .summary("run a pipeline once per row of a CSV, JSONL or YAML file")
    .description(
      "Run a pipeline once per row of an inputs file (CSV with a header of input names, JSONL, or a YAML list): every row is checked against the pipeline's inputs and priced before anything is paid, rows run --parallel at once sharing the account's limits, and --max-credits bounds the whole batch. The batch directory (runs/<time>-<name>-batch/) holds each row's run; `reelsmith resume BATCH_DIR` finishes it without redoing a finished row. Exit 0 every row succeeded, 1 a row failed, 2 a bad row (nothing sent), 3 the batch's budget stopped a row, 4 rows wait at a gate, 130 interrupted.",
    )
    .argument("<file>", "pipeline YAML file")
    .requiredOption(
      "--inputs <file>",
      "the rows: .csv, .jsonl or .yaml (an `id` column names a row)",
    )
    .option("--plan", "print each row's cost and the total, then stop (nothing is paid)")
    .option("--parallel <n>", "rows at once (default 2)", parsePositiveInteger)
    .option(
      "--concurrency <n>",
      "steps and items in flight per row (default 8)",
      parsePositiveInteger,
    )
    .option(
      "--max-videos <n>",
      "video jobs in flight across all rows (default 4)",
      parsePositiveInteger,
    )
    .option("--max-credits <n>", "the whole batch's credit budget", parsePositiveInteger)
    .option(
      "--allow-partial",
      "when the budget cannot pay for a whole row, start it anyway and make what fits",
    )
    .option("--no-cache", "do not reuse or store cached results")
    .option("--auto-approve", "approve every gate the rows reach, by 'auto'")
    .option("--no-service", "with --plan: ask no service for its models' prices")
    .option("--json", "print NDJSON events on stdout, each row's with its `row` id")
    .addOption(serviceOptions.baseUrl())
    .addOption(serviceOptions.apiKey())
    .addOption(databaseOption())
    .option(
      "--artifacts <dir>",
      "with --database: directory every worker shares, for the batch and its rows' runs (default runs)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  reelsmith batch examples/storyboard/pipeline.yaml --inputs stories.csv --plan\n  reelsmith batch examples/storyboard/pipeline.yaml --inputs stories.csv --parallel 3 --max-credits 200\n  reelsmith resume runs/20260101-120000-storyboard-batch\n  reelsmith batch examples/storyboard/pipeline.yaml --inputs stories.csv --database postgres://… --max-credits 200\n  reelsmith status 20260101-120000-storyboard-batch --database postgres://…",
    )
    .action(async (file: string, flags: BatchFlags) =>
      done(await batchCommand(file, flags, context)),
    );
}
