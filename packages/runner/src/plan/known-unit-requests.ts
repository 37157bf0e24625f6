import { statusName, unitBody, unitContext, unitRequest } from "../executor/unit-request.js";
import { defineKey } from "../expressions/convert.js";
import { evaluateValue } from "../expressions/evaluate.js";
import { collectReferencePaths } from "../expressions/references.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, StepKindSpec } from "../steps/step-kind.js";
import { buildGraph } from "./build-graph.js";

const KNOWN_CONTEXTS = new Set(["inputs", "env", "item", "index"]);

/** A step's units' requests, all known before the run. */
export interface KnownStepRequests {
  kind: string;
  /** One request per unit, in item order (one for a step without `for_each`). */
  specs: Record<string, unknown>[];
}

/**
 * The outputs a step will have without anything being paid for it (every unit's result in the
 * cache), as the run would read them: one unit's outputs, or a fan-out's list of them.
 * Undefined when it has to be made.
 */
export type ServedOutputs = (
  step: StepSpec,
  known: KnownStepRequests,
) => Promise<Record<string, unknown> | Record<string, unknown>[] | undefined>;

/**
 * The requests a step's units will send, where every value of them is known before the run
 * (literals and expressions over inputs and env, a literal or input-made fan-out list, the
 * pipeline's defaults merged): one spec per unit, in item order, evaluated as the executor
 * does. A step that reads another step's outputs is known only when that step's are: when
 * `served` gives them (a step the cache answers wholly: a rerun's storyboard, whose scenes
 * then give the clips' prompts); other such steps are left out. Used to find the units the
 * cache will serve, so the estimate counts them as 0.
 *
 * @example
 * (await knownUnitRequests(pipeline, { inputs })).get("clips"); // { kind, specs: [{ model, prompt: "a fox", … }, …] }
 */
export async function knownUnitRequests(
  pipeline: LoadedPipeline,
  options: {
    inputs: Record<string, unknown>;
    runName?: string;
    stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[];
    served?: ServedOutputs;
  },
): Promise<Map<string, KnownStepRequests>> {
  const { spec } = pipeline;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.env ?? {})) defineKey(env, key, String(value));
  const steps: Record<string, { outputs: unknown; status: string }> = {};
  const context = {
    inputs: options.inputs,
    env,
    steps,
    run: { id: "", dir: "", name: options.runName ?? spec.name },
  };
  const kinds = kindsByName(options.stepKinds);
  const byId = new Map(spec.steps.map((step) => [step.id, step]));
  const known = new Map<string, KnownStepRequests>();
  const graph = buildGraph(pipeline);
  // Steps another step waits for: only their outputs are worth knowing.
  const read = new Set<string>();
  for (const dependencies of graph.dependencies.values())
    for (const dependency of dependencies) read.add(dependency);
  // In an order where a step comes after the steps it reads, so that theirs are known first.
  for (const id of graph.order) {
    const step = byId.get(id);
    if (!step) continue;
    const kind = kindOf(step as Record<string, unknown>, kinds);
    if (!kind) continue;
    const body = unitBody(step as Record<string, unknown>, kind.kind, spec.defaults);
    // Known now: inputs, env, the item and its index, the run's name (not its id or
    // directory), and the outputs of the steps served whole.
    const knownNow = collectReferencePaths([body, step.for_each]).every(
      (reference) =>
        KNOWN_CONTEXTS.has(reference.context) ||
        (reference.context === "run" && reference.path[0] === "name") ||
        (reference.context === "steps" && Object.hasOwn(steps, reference.path[0] ?? "")),
    );
    if (!knownNow) continue;
    let requests: KnownStepRequests;
    try {
      if (step.for_each === undefined) {
        requests = { kind: kind.kind, specs: [unitRequest(body, context)] };
      } else {
        const list = evaluateValue(step.for_each, context);
        if (!Array.isArray(list)) continue;
        requests = {
          kind: kind.kind,
          specs: list.map((item, index) =>
            unitRequest(body, unitContext(context, { item, index })),
          ),
        };
      }
    } catch {
      continue; // Left for the run to evaluate (and report).
    }
    known.set(step.id, requests);
    // A step that may be skipped gives other outputs than its units' (none): not assumed.
    if (!options.served || step.if !== undefined || !read.has(step.id)) continue;
    const outputs = await options.served(step, requests);
    if (outputs !== undefined) steps[step.id] = { outputs, status: statusName("succeeded") };
  }
  return known;
}
