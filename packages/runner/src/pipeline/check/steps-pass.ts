import { containsExpression } from "../../expressions/references.js";
import { templateCloses, wholeExpression } from "../../expressions/template.js";
import type { CheckContext } from "../../steps/step-kind.js";
import { bodyPath, type CheckModel } from "./check-model.js";

/**
 * Steps: the rules of a step's own fields (`max_parallel`, `sequential`, `for_each`, `if`), then each
 * kind's own checks on its body merged over its defaults.
 */
export function stepsPass(model: CheckModel): void {
  const { problems } = model;
  for (const step of model.steps) {
    if (step.id === undefined) continue;
    const { raw, index } = step;
    if (raw.max_parallel !== undefined && !step.fanOut) {
      problems.push({
        path: ["steps", index, "max_parallel"],
        atKey: true,
        message: "`max_parallel` only applies to a step with `for_each`",
        severity: "warning",
        code: "max_parallel_without_for_each",
      });
    }
    if (raw.sequential === true && !step.fanOut) {
      problems.push({
        path: ["steps", index, "sequential"],
        atKey: true,
        message: "`sequential` only applies to a step with `for_each`",
        severity: "error",
        code: "sequential_without_for_each",
        hint: "add `for_each`, or remove `sequential`",
      });
    }
    if (
      raw.sequential === true &&
      step.fanOut &&
      typeof raw.max_parallel === "number" &&
      raw.max_parallel > 1
    ) {
      problems.push({
        path: ["steps", index, "max_parallel"],
        message: `a \`sequential\` step runs one item at a time, so \`max_parallel: ${raw.max_parallel}\` cannot apply`,
        severity: "error",
        code: "sequential_max_parallel",
        hint: "remove `max_parallel` (or `sequential`, if the items do not read `previous`)",
      });
    }
    // A text whose `${{` is never closed is the syntax pass's, told at its `${{`.
    if (
      typeof raw.for_each === "string" &&
      templateCloses(raw.for_each) &&
      wholeExpression(raw.for_each) === undefined
    ) {
      problems.push({
        path: ["steps", index, "for_each"],
        message: "`for_each` must be a list or one whole expression giving a list, not text",
        severity: "error",
        code: "for_each_not_a_list",
        hint: `write \`for_each: \${{ steps.<id>.outputs.json.items }}\` with nothing around it`,
      });
    }
    if (
      typeof raw.if === "string" &&
      raw.if.includes("${{") &&
      templateCloses(raw.if) &&
      wholeExpression(raw.if) === undefined
    ) {
      problems.push({
        path: ["steps", index, "if"],
        message: `an \`if:\` condition must be one expression, not text around \`\${{ }}\``,
        severity: "error",
        code: "condition_not_an_expression",
      });
    }
    const { kind, merged } = step;
    if (kind?.fanOut === false && step.fanOut) {
      problems.push({
        path: ["steps", index, "for_each"],
        atKey: true,
        message: `a \`${kind.kind}\` step cannot take \`for_each\`: it runs once for the whole step`,
        severity: "error",
        code: "fan_out_not_allowed",
        hint: `remove \`for_each\` (a step after it can still fan out)`,
      });
    }
    if (!kind?.check || !merged) continue;
    const context: CheckContext = {
      report(path, message, options) {
        problems.push({
          path: bodyPath(step, path, model.defaults),
          atKey: path[0] === undefined,
          message,
          severity: options?.severity ?? "error",
          code: options?.code ?? `${kind.kind}_check`,
          hint: options?.hint,
        });
      },
      isLiteral: (value) => !containsExpression(value),
      ...(model.catalogs ? { catalogs: model.catalogs } : {}),
      defaults: model.defaults,
    };
    try {
      kind.check(merged as never, context);
    } catch {
      // a malformed body the schema already reports
    }
  }
}
