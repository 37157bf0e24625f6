import type { Plan } from "@reelsmith/runner";
import type { LoadedPipeline } from "@reelsmith/runner/validate";
import type { Command } from "commander";
import { collectInput, gatherInputs } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import type { ModelCatalogs } from "../services/known-model-catalogs.js";

/** Flags of `reelsmith plan`. */
export interface PlanFlags {
  input?: string[];
  inputs?: string;
  json?: boolean;
  /** Ask no service for its models' prices (commander's `--no-service`). */
  service?: boolean;
}

/**
 * The plan of a pipeline file without printing it: the pipeline checked (its diagnostics go
 * to the context's stderr; an invalid one is a UsageError, an unknown model too: the one model
 * check with the given inputs), its inputs gathered and the models' prices found (the
 * provider profile's, else the configured service's model list, one free request, unless
 * `service` is false). Notes about prices go to `note`.
 *
 * @example
 * const { plan } = await makePlan("pipeline.yaml", { input: ["scenes=2"] }, context, console.error);
 */
export async function makePlan(
  file: string,
  flags: Omit<PlanFlags, "json"> & {
    given?: Record<string, unknown>;
    /** The service to ask for prices (`batch --plan --base-url`), else the configured one. */
    baseUrl?: string;
    apiKey?: string;
  },
  context: CliContext,
  note: (line: string) => void,
): Promise<{ plan: Plan; pipeline: LoadedPipeline; catalogs?: ModelCatalogs }> {
  const { modelCheckSetup } = await import("../services/model-check-setup.js");
  const { takeProfileWarnings } = await import("../config/cli-profile.js");
  const { loadValidPipeline } = await import("./load-valid-pipeline.js");
  const connection = {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
  };
  const inputs = { ...(await gatherInputs(flags, context.cwd)), ...(flags.given ?? {}) };
  const setup = await modelCheckSetup(connection, context, {
    readService: flags.service !== false,
    inputs,
    where: "plan --no-service",
  });
  const { catalogs } = setup;
  for (const line of await takeProfileWarnings(context)) note(line);
  if (setup.note) note(setup.note);
  const pipeline = await loadValidPipeline(file, context, setup);
  const { planPipeline } = await import("@reelsmith/runner");
  const plan = planPipeline(pipeline, { inputs, ...(catalogs ? { catalogs } : {}) });
  return { plan, pipeline, ...(catalogs ? { catalogs } : {}) };
}

/**
 * `reelsmith plan FILE`: the stages (steps that run together), fan-outs, every request whose
 * values are already known, the limits that apply and the expected cost. Nothing is paid:
 * the models' prices come from the provider profile (--config), else from the configured service's
 * model list (one free request; `--no-service` skips it).
 *
 * @example
 * const code = await planCommand("pipeline.yaml", {}, context);
 */
export async function planCommand(
  file: string,
  flags: PlanFlags,
  context: CliContext,
): Promise<number> {
  // Rows of a batch (a CSV or JSONL file): each row's cost and the total.
  if (flags.inputs && /\.(csv|jsonl|ndjson)$/i.test(flags.inputs)) {
    const { planBatchCommand } = await import("./batch-plan.js");
    return planBatchCommand(
      file,
      flags.inputs,
      { json: flags.json ?? false, service: flags.service !== false },
      context,
    );
  }
  const { formatPlan } = await import("../render/format-plan.js");
  const { plan } = await makePlan(file, flags, context, (line) =>
    context.stderr.write(`${line}\n`),
  );
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
      "Show the DAG (which steps run together, which fan out), every request whose values are already known, the limits that apply and the expected cost. Pays for nothing: prices come from the provider profile (--config), else from the configured service's model list (one free request).",
    )
    .argument("<file>", "pipeline YAML file")
    .option("--input <key=value>", "set an input (repeatable)", collectInput, [])
    .option(
      "--inputs <file>",
      "read inputs from a JSON or YAML file; a .csv or .jsonl file of rows plans a batch (each row's cost and the total)",
    )
    .option("--json", "print the plan as JSON")
    .option("--no-service", "ask no service for its models' prices")
    .action(async (file: string, flags: PlanFlags) =>
      done(await planCommand(file, flags, context)),
    );
}
