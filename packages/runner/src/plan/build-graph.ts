import { RunnerError } from "../errors/runner-error.js";
import { collectReferences } from "../expressions/references.js";
import { conditionAsTemplate } from "../expressions/template.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";

/** Steps and what each waits for. */
export interface StepGraph {
  /** Step ids in an order that respects every dependency (file order where free). */
  order: string[];
  /** step id → ids of the steps it waits for (`needs` plus `steps.<id>` references). */
  dependencies: Map<string, Set<string>>;
}

/**
 * The ids a step waits for: its `needs` and every step its fields reference.
 * Unknown ids are kept (validation reports them).
 *
 * @example
 * ```ts
 * stepDependencies({ id: "final", ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "f.mp4" } });
 * // Set { "clips" }
 * ```
 */
export function stepDependencies(step: {
  readonly id: string;
  readonly [field: string]: unknown;
}): Set<string> {
  const { id: _id, name: _name, ...rest } = step;
  const dependencies = new Set<string>(
    Array.isArray(step.needs) ? step.needs.filter((need) => typeof need === "string") : [],
  );
  const readable =
    typeof rest.if === "string" ? { ...rest, if: conditionAsTemplate(rest.if) } : rest;
  for (const id of collectReferences(readable).steps) dependencies.add(id);
  dependencies.delete(step.id);
  return dependencies;
}

/**
 * Every dependency cycle, each as the list of ids around it (first id repeated at the end).
 *
 * @example
 * ```ts
 * findCycles(new Map([["a", new Set(["b"])], ["b", new Set(["a"])]])); // [["a", "b", "a"]]
 * ```
 */
export function findCycles(dependencies: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (id: string): void => {
    state.set(id, "visiting");
    stack.push(id);
    for (const next of dependencies.get(id) ?? []) {
      if (!dependencies.has(next)) continue;
      const seen = state.get(next);
      if (seen === "visiting") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(id, "done");
  };
  for (const id of dependencies.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/** Graphs built, by the steps they were built from (a validated pipeline's are not changed). */
const graphs = new WeakMap<readonly StepSpec[], StepGraph>();

/**
 * The DAG of a pipeline's steps from `needs` and references. Throws when there is a cycle
 * (validation reports cycles with positions first). Accepts a LoadedPipeline or its spec.
 *
 * @example
 * ```ts
 * const { order, dependencies } = buildGraph(pipeline);
 * order; // ["storyboard", "clips", "final", "sheet"]
 * ```
 */
export function buildGraph(
  pipeline: { spec: { steps: StepSpec[] } } | { steps: StepSpec[] },
): StepGraph {
  const steps = "spec" in pipeline ? pipeline.spec.steps : pipeline.steps;
  // A run plans and executes the same steps (and a batch runs them row after row): built once.
  const built = graphs.get(steps);
  if (built && built.order.length === steps.length) return built;
  const dependencies = new Map<string, Set<string>>();
  for (const step of steps) dependencies.set(step.id, stepDependencies(step));
  const cycles = findCycles(dependencies);
  if (cycles[0])
    throw new RunnerError("pipeline_cycle", `dependency cycle: ${cycles[0].join(" → ")}`);
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (id: string): void => {
    if (placed.has(id)) return;
    placed.add(id);
    for (const dependency of dependencies.get(id) ?? [])
      if (dependencies.has(dependency)) place(dependency);
    order.push(id);
  };
  for (const step of steps) place(step.id);
  const graph = { order, dependencies };
  graphs.set(steps, graph);
  return graph;
}
