import { collectReferences } from "../expressions/index.js";
import type { ExecutableStep, StepGraph } from "./executable-pipeline.js";

/**
 * The DAG of steps from `needs` plus `steps.<id>` references, in a topological order
 * (file order among independent steps). Validation reports cycles before a run; here a
 * cycle only means the remaining steps keep file order.
 * @example dependencyGraph(spec.steps).dependencies.get("final") // Set { "clips" }
 */
export function dependencyGraph(steps: readonly ExecutableStep[]): StepGraph {
  const ids = new Set(steps.map((s) => s.id));
  const dependencies = new Map<string, Set<string>>();
  for (const step of steps) {
    const { id, needs, ...rest } = step;
    const found = new Set<string>(needs ?? []);
    for (const ref of collectReferences(rest).steps) if (ids.has(ref) && ref !== id) found.add(ref);
    dependencies.set(id, found);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < steps.length) {
    const next = steps.find(
      (s) =>
        !placed.has(s.id) &&
        [...(dependencies.get(s.id) ?? [])].every((d) => placed.has(d) || !ids.has(d)),
    );
    const pick = next ?? steps.find((s) => !placed.has(s.id));
    if (!pick) break;
    order.push(pick.id);
    placed.add(pick.id);
  }
  return { order, dependencies };
}
