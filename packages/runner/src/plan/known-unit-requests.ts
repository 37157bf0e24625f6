import { unitBody, unitContext, unitRequest } from "../executor/unit-request.js";
import { defineKey } from "../expressions/convert.js";
import { evaluateValue } from "../expressions/evaluate.js";
import { collectReferencePaths } from "../expressions/references.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, StepKindSpec } from "../steps/step-kind.js";

const KNOWN_CONTEXTS = new Set(["inputs", "env", "item", "index"]);

/**
 * The requests a step's units will send, where every value of them is known before the run
 * (literals and expressions over inputs and env, a literal or input-made fan-out list, the
 * pipeline's defaults merged): one spec per unit, in item order, evaluated as the executor
 * does. Steps that read other steps' outputs are left out. Used to find the units the cache
 * will serve, so the estimate counts them as 0.
 *
 * @example
 * knownUnitRequests(pipeline, { inputs }).get("clips"); // [{ model, prompt: "a fox", … }, …]
 */
export function knownUnitRequests(
  pipeline: LoadedPipeline,
  options: {
    inputs: Record<string, unknown>;
    runName?: string;
    stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[];
  },
): Map<string, { kind: string; specs: Record<string, unknown>[] }> {
  const { spec } = pipeline;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.env ?? {})) defineKey(env, key, String(value));
  const context = {
    inputs: options.inputs,
    env,
    steps: {},
    run: { id: "", dir: "", name: options.runName ?? spec.name },
  };
  const kinds = kindsByName(options.stepKinds);
  const known = new Map<string, { kind: string; specs: Record<string, unknown>[] }>();
  for (const step of spec.steps) {
    const kind = kindOf(step as Record<string, unknown>, kinds);
    if (!kind) continue;
    const body = unitBody(step as Record<string, unknown>, kind.kind, spec.defaults);
    // Known now: inputs, env, the item and its index, the run's name (not its id or
    // directory, nor other steps' outputs).
    const knownNow = collectReferencePaths([body, step.for_each]).every(
      (reference) =>
        KNOWN_CONTEXTS.has(reference.context) ||
        (reference.context === "run" && reference.path[0] === "name"),
    );
    if (!knownNow) continue;
    try {
      if (step.for_each === undefined) {
        known.set(step.id, {
          kind: kind.kind,
          specs: [unitRequest(body, context)],
        });
        continue;
      }
      const list = evaluateValue(step.for_each, context);
      if (!Array.isArray(list)) continue;
      known.set(step.id, {
        kind: kind.kind,
        specs: list.map((item, index) => unitRequest(body, unitContext(context, { item, index }))),
      });
    } catch {
      // Left for the run to evaluate (and report).
    }
  }
  return known;
}
