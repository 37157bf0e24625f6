import type { Plan } from "@reelsmith/runner";
import type { LoadedPipeline } from "@reelsmith/runner/validate";
import { gatherInputs } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import type { ModelCatalogs } from "../services/known-model-catalogs.js";

/** What a plan is made from: the inputs given, and whether a service may be asked. */
export interface PlanInputFlags {
  input?: string[];
  inputs?: string;
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
  flags: PlanInputFlags & {
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
