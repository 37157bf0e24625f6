import type { Command } from "commander";
import { collectInput, gatherInputs } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { makePlan, type PlanInputFlags } from "./make-plan.js";

/** Flags of `reelsmith plan`. */
export interface PlanFlags extends PlanInputFlags {
  json?: boolean;
}

/**
 * `reelsmith plan FILE`: the stages (steps that run together), fan-outs, every request whose
 * values are already known, the limits that apply and the expected cost. Nothing is paid:
 * the models' prices come from the provider profile (--config), else from the configured service's
 * model list (one free request; `--no-service` skips it); what the cache holds costs nothing,
 * as in a run (`--no-cache`: every request priced): with a database (`--database`, or
 * REELSMITH_DATABASE_URL), the cache its workers serve runs from.
 *
 * @example
 * const code = await planCommand("pipeline.yaml", {}, context);
 */
export async function planCommand(
  file: string,
  flags: PlanFlags,
  context: CliContext,
): Promise<number> {
  // Priced with the cache a run would use: a database's when runs go to one.
  const database = databaseUrl(flags, context);
  if (flags.artifacts && !database) {
    throw new UsageError(
      "--artifacts needs --database: it names where the workers' shared cache keeps clips",
      {
        code: "artifacts_needs_database",
        hint: "pass --database postgres://… (or set REELSMITH_DATABASE_URL); a plan here reads the working directory's cache",
      },
    );
  }
  // Rows of a batch (a CSV or JSONL file): each row's cost and the total.
  if (flags.inputs && /\.(csv|jsonl|ndjson)$/i.test(flags.inputs)) {
    const { planBatchCommand } = await import("./batch-plan.js");
    return planBatchCommand(
      file,
      flags.inputs,
      {
        json: flags.json ?? false,
        service: flags.service !== false,
        cache: flags.cache !== false,
        ...(database ? { database } : {}),
        ...(flags.artifacts ? { artifacts: flags.artifacts } : {}),
      },
      context,
    );
  }
  const { formatPlan } = await import("../render/format-plan.js");
  const { plan, pipeline } = await makePlan(
    file,
    { ...flags, ...(database ? { database } : {}) },
    context,
    (line) => context.stderr.write(`${line}\n`),
  );
  // Inputs given here that `run` would refuse are refused here too (exit 2), not left as a
  // note under a plan of unknown values.
  if ((flags.input?.length ?? 0) > 0 || flags.inputs) {
    const { checkInputs } = await import("./load-valid-pipeline.js");
    await checkInputs(pipeline, await gatherInputs(flags, context.cwd));
  }
  context.stdout.write(flags.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
  return plan.problems.length > 0 ? ExitCode.usage : ExitCode.ok;
}

/**
 * Declare `plan` on the program.
 *
 * @example
 * registerPlanCommand(program, context, (code) => (exitCode = code));
 */
export function registerPlanCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("plan")
    .summary("show what a run would do")
    .description(
      "Show the DAG (which steps run together, which fan out), every request whose values are already known, the limits that apply and the expected cost. Pays for nothing: prices come from the provider profile (--config), else from the configured service's model list (one free request). What the cache holds costs nothing, as in a run: with --database (or REELSMITH_DATABASE_URL), the cache of that database's workers.",
    )
    .argument("<file>", "pipeline YAML file")
    .option("--input <key=value>", "set an input (repeatable)", collectInput, [])
    .option(
      "--inputs <file>",
      "read inputs from a JSON or YAML file; a .csv or .jsonl file of rows plans a batch (each row's cost and the total)",
    )
    .option("--json", "print the plan as JSON")
    .option("--no-service", "ask no service for its models' prices")
    .option(
      "--no-cache",
      "price every request, as `run --no-cache` would pay it (by default what the cache holds costs nothing, as in a run)",
    )
    .addOption(databaseOption("price with the cache its workers serve runs from"))
    .option(
      "--artifacts <dir>",
      "with --database: directory every worker shares, where its cache keeps the clips (default runs)",
    )
    .action(async (file: string, flags: PlanFlags) =>
      done(await planCommand(file, flags, context)),
    );
}
