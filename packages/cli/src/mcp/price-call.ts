import type { RunEstimate } from "@reelsmith/runner";
import type { LoadedPipeline } from "@reelsmith/runner/validate";
import { checkInputs, loadValidPipeline } from "../commands/load-valid-pipeline.js";
import { validateFiles } from "../commands/validate-command.js";
import type { CliContext } from "../context.js";
import { knownModelCatalogs, type ModelCatalogs } from "../services/known-model-catalogs.js";
import { runCache } from "../services/run-cache.js";
import { RefusalError } from "./tool-result.js";

/** The service flags the server was started with. */
export interface ServiceFlags {
  baseUrl?: string;
  apiKey?: string;
}

/** A pipeline checked and priced before anything is sent. */
export interface PricedPipeline {
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  /** The model catalogs (`video_models`, `image_models`, …), as `run` knows them. */
  catalogs?: ModelCatalogs;
  estimate: RunEstimate;
}

/**
 * The model catalogs with their prices, as `run` and `plan` know them before anything is
 * paid: the provider profile's, the built-in simulator's, else the video models of the
 * configured service's model list (one free request).
 * @example const catalogs = await pricedCatalogs(flags, context); // { video_models: [...], … }
 */
export async function pricedCatalogs(
  flags: ServiceFlags,
  context: CliContext,
): Promise<ModelCatalogs | undefined> {
  const known = await knownModelCatalogs(flags, context);
  if (known?.video_models) return known;
  const { listedVideoModels } = await import("../services/listed-video-models.js");
  const listed = (await listedVideoModels(context, flags)).videoModels;
  return listed ? { ...known, video_models: listed } : known;
}

/**
 * A pipeline file checked as `validate` does: refused with every error's position when it
 * has one (nothing is loaded further, nothing is sent).
 * @example await refuseInvalid("pipeline.yaml", context);
 */
export async function refuseInvalid(file: string, context: CliContext): Promise<void> {
  const { files } = await validateFiles([file], context);
  const errors = files.flatMap((entry) => entry.diagnostics).filter((d) => d.severity === "error");
  if (errors.length === 0) return;
  throw new RefusalError({
    code: "invalid_pipeline",
    message: `${file} has ${errors.length} error${errors.length === 1 ? "" : "s"}; nothing was run`,
    hint: "fix each diagnostic at its file:line:column, then call validate again",
    alternatives: [
      {
        tool: "validate",
        arguments: { files: [file] },
        why: "every problem with its position and hint",
      },
    ],
    details: { diagnostics: errors },
  });
}

/**
 * A new run's pipeline checked, its inputs resolved and its cost estimated as the runner
 * does (the units the cache holds cost nothing), before anything is sent.
 * @example const { estimate } = await priceNewRun("pipeline.yaml", { scenes: 3 }, {}, context);
 */
export async function priceNewRun(
  file: string,
  given: Record<string, unknown>,
  options: ServiceFlags & { cache?: boolean },
  context: CliContext,
): Promise<PricedPipeline> {
  await refuseInvalid(file, context);
  const { modelCheckSetup } = await import("../services/model-check-setup.js");
  const setup = await modelCheckSetup(options, context, {
    readService: true,
    inputs: given,
    where: "the run",
  });
  const { catalogs } = setup;
  const pipeline = await loadValidPipeline(file, context, setup);
  const inputs = await checkInputs(pipeline, given);
  const { estimateRun } = await import("@reelsmith/runner");
  const estimate = await estimateRun(pipeline, {
    inputs,
    catalogs,
    ...(options.cache === false ? {} : { cache: await runCache(options, context) }),
  });
  return {
    pipeline,
    inputs,
    ...(catalogs ? { catalogs } : {}),
    estimate,
  };
}

/**
 * What is left to pay of a run on disk (a resume, or an approval that goes on): its
 * pipeline and inputs as it started, the units it already has counted as 0.
 * @example const { estimate, own } = await priceResume("/work/runs/x", {}, context);
 */
export async function priceResume(
  runDir: string,
  flags: ServiceFlags,
  context: CliContext,
): Promise<PricedPipeline & { own?: number }> {
  const { inspectRun } = await import("@reelsmith/runner/runs");
  const recorded = inspectRun(runDir);
  const catalogs = await pricedCatalogs(
    recorded.builtInService ? { ...flags, baseUrl: undefined } : flags,
    context,
  );
  const pipeline = await loadValidPipeline(recorded.pipelinePath, context, { catalogs });
  const inputs = (recorded.start.inputs as Record<string, unknown>) ?? {};
  const { estimateRun } = await import("@reelsmith/runner");
  const estimate = await estimateRun(pipeline, {
    inputs,
    catalogs,
    previous: recorded.state,
    cache: await runCache(flags, context),
  });
  const startedWith = recorded.start.maxCredits;
  const own = typeof startedWith === "number" ? startedWith : pipeline.spec.max_credits;
  return {
    pipeline,
    inputs,
    ...(catalogs ? { catalogs } : {}),
    estimate,
    ...(own === undefined ? {} : { own }),
  };
}

/**
 * What one new take of a unit of `step` costs: one unit at its step's price (0 when the
 * price is unknown here; the runner's budget still holds it to the grant).
 * @example const credits = await priceTake("/work/runs/x", "clips", {}, context); // 9
 */
export async function priceTake(
  runDir: string,
  step: string,
  flags: ServiceFlags,
  context: CliContext,
): Promise<{ credits: number; own?: number }> {
  const { pipeline, inputs, catalogs, own } = await priceResume(runDir, flags, context);
  const { planPipeline } = await import("@reelsmith/runner");
  const plan = planPipeline(pipeline, { inputs, ...(catalogs ? { catalogs } : {}) });
  const credits = plan.limits.estimate.steps[step]?.perUnit ?? 0;
  return { credits, ...(own === undefined ? {} : { own }) };
}
