import { findCycles, stepDependencies } from "../../plan/build-graph.js";
import { closest } from "../schema-errors.js";
import type { CheckModel } from "./check-model.js";

/** Ids: unique step ids, `needs` naming known other steps, and no dependency cycle. */
export function idsPass(model: CheckModel): void {
  const { problems } = model;
  const dependencies = new Map<string, Set<string>>();
  for (const step of model.steps) {
    if (step.id === undefined) continue;
    if (!step.first) {
      problems.push({
        path: ["steps", step.index, "id"],
        message: `duplicate step id \`${step.id}\` (first used by step ${(model.byId.get(step.id)?.index ?? 0) + 1})`,
        severity: "error",
        code: "duplicate_id",
      });
    }
    if (Array.isArray(step.raw.needs)) {
      step.raw.needs.forEach((need, needIndex) => {
        if (typeof need !== "string") return;
        if (need === step.id) {
          problems.push({
            path: ["steps", step.index, "needs", needIndex],
            message: `step \`${need}\` cannot need itself`,
            severity: "error",
            code: "cycle",
          });
        } else if (!model.byId.has(need)) {
          const suggestion = closest(need, model.byId.keys());
          problems.push({
            path: ["steps", step.index, "needs", needIndex],
            message: `\`needs\` names unknown step \`${need}\``,
            severity: "error",
            code: "unknown_step",
            hint: suggestion ? `did you mean \`${suggestion}\`?` : undefined,
          });
        }
      });
    }
    if (step.first) dependencies.set(step.id, stepDependencies({ ...step.raw, id: step.id }));
  }
  for (const cycle of findCycles(dependencies)) {
    const start = cycle[0] ?? "";
    problems.push({
      path: ["steps", model.byId.get(start)?.index ?? 0, "id"],
      message: `dependency cycle: ${cycle.join(" → ")}`,
      severity: "error",
      code: "cycle",
      hint: "a step cannot use, directly or through others, the outputs of a step that waits for it",
    });
  }
}
