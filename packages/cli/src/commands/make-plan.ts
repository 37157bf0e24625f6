import type { Plan } from "@reelsmith/runner";
import type { LoadedPipeline } from "@reelsmith/runner/validate";
import { gatherInputs } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import type { ModelCatalogs } from "../services/known-model-catalogs.js";
import { openRunCache } from "../services/run-cache.js";

/** What a plan is made from: the inputs given, and whether a service may be asked. */
export interface PlanInputFlags {
  input?: string[];
  inputs?: string;
  /** Ask no service for its models' prices (commander's `--no-service`). */
  service?: boolean;
  /** Count the cache's results as free, as `run` does (commander's `--no-cache` sets false). */
  cache?: boolean;
  /** The shared database a run would go to (`--database`, REELSMITH_DATABASE_URL): its cache. */
  database?: string;
  /** With `database`: the artifacts directory its workers share (default runs): the blobs. */
  artifacts?: string;
}

/**
 * The plan of a pipeline file without printing it: the pipeline checked (its diagnostics go
 * to the context's stderr; an invalid one is a UsageError, an unknown model too: the one model
 * check with the given inputs), its inputs gathered and the models' prices found (the
 * provider profile's, else the configured service's model list, one free request, unless
 * `service` is false), the units the cache holds counted as free unless `cache` is false.
 * Notes about prices go to `note`.
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
  const { checkInputs, loadValidPipeline } = await import("./load-valid-pipeline.js");
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
  const { planPipeline, estimateRun } = await import("@reelsmith/runner");
  const plan = planPipeline(pipeline, { inputs, ...(catalogs ? { catalogs } : {}) });
  // The units the cache holds cost nothing, as in `run`'s estimate: the plan's figures are
  // the ones a run started here shows (its estimate is revised in place).
  // Requests are keyed as the run asks them: with the inputs' defaults and coerced types.
  // Inputs a run would refuse leave the plan as it is (its caller refuses them).
  const resolved =
    flags.cache === false ? undefined : await checkInputs(pipeline, inputs).catch(() => undefined);
  if (resolved) {
    const opened = await openRunCache(
      {
        ...connection,
        ...(flags.database ? { database: flags.database } : {}),
        ...(flags.artifacts ? { artifacts: flags.artifacts } : {}),
      },
      context,
      note,
    );
    try {
      await estimateRun(pipeline, {
        inputs: resolved,
        ...(catalogs ? { catalogs } : {}),
        plan,
        ...(opened.cache ? { cache: opened.cache } : {}),
      });
    } finally {
      await opened.close();
    }
  }
  return { plan, pipeline, ...(catalogs ? { catalogs } : {}) };
}
