import { collectReferencePaths } from "../../expressions/references.js";
import { closest } from "../schema-errors.js";
import type { CheckedStep, CheckModel } from "./check-model.js";
import { walkExpressions } from "./expression-walker.js";
import { checkStepReference, outputNames, type ReferenceReport } from "./step-reference-check.js";

const RUN_FIELDS = ["id", "dir", "name"];
const PREVIOUS_FIELDS = ["item", "index", "outputs"];

/** Where `previous` may be read: the kind's body of a step with `for_each` and `sequential`. */
function readsPrevious(step: CheckedStep, key: string): boolean {
  return step.fanOut && step.raw.sequential === true && key === step.kind?.kind;
}

/** What to do about `previous` read in a step's field `key` (undefined: outside any step). */
function previousHint(step: CheckedStep | undefined, key: string): string {
  if (!step?.fanOut) return "read another step's outputs with `steps.<id>.outputs`";
  if (step.raw.sequential !== true)
    return "add `sequential: true` to run the items one after another";
  return `\`${key}\` is evaluated once for the whole step; read \`previous\` inside \`${step.kind?.kind ?? "the kind's body"}:\``;
}

/** `previous.<field>` (and `previous.outputs.<name>`): only in the body of a sequential fan-out. */
function checkPreviousReference(
  path: readonly (string | number)[],
  previous: { step: CheckedStep } | { hint: string },
  report: ReferenceReport,
): void {
  const sequential = "step" in previous ? previous.step : undefined;
  const [first, second] = path;
  if (!sequential) {
    report(
      "`previous` is only defined in the body of a step with `for_each` and `sequential: true`",
      "previous_outside_sequential",
      "hint" in previous ? previous.hint : undefined,
    );
    return;
  }
  if (typeof first !== "string" || first === "*") return;
  if (!PREVIOUS_FIELDS.includes(first)) {
    report(
      `\`previous.${first}\` does not exist; previous has ${PREVIOUS_FIELDS.join(", ")}`,
      "unknown_previous_field",
    );
    return;
  }
  if (first !== "outputs" || typeof second !== "string" || second === "*") return;
  const names = outputNames(sequential);
  if (names && !names.includes(second)) {
    const suggestion = closest(second, names);
    report(
      `step \`${sequential.id}\` (${sequential.kind?.kind}) has no output \`${second}\``,
      "unknown_output",
      suggestion
        ? `did you mean \`${suggestion}\`? outputs: ${names.join(", ")}`
        : `outputs: ${names.join(", ")}`,
    );
  }
}

/**
 * References in one value: steps, outputs, inputs, env, run; `item`/`index` only in a
 * fan-out; `previous` only in the body of a sequential fan-out (`sequential`, its step).
 */
function checkValue(
  model: CheckModel,
  value: unknown,
  path: (string | number)[],
  allowsItem: boolean,
  previous: { step: CheckedStep } | { hint: string },
): void {
  const inputs = new Set(Object.keys(model.inputs));
  const env = new Set(Object.keys((model.data.env as object | undefined) ?? {}));
  walkExpressions(value, path, ({ path: stringPath, expression, index: expressionIndex }) => {
    const report = (
      message: string,
      code: string,
      hint?: string,
      severity: "error" | "warning" = "error",
      needle?: { text: string; at: number },
    ) =>
      model.problems.push({
        path: stringPath,
        expressionIndex,
        message,
        code,
        hint,
        severity,
        ...(needle ? { needle } : {}),
      });
    for (const reference of collectReferencePaths(`\${{ ${expression} }}`)) {
      const [first] = reference.path;
      if (reference.context === "item" || reference.context === "index") {
        if (!allowsItem)
          report(
            `\`${reference.context}\` is only defined inside a step with \`for_each\``,
            "item_outside_for_each",
          );
        continue;
      }
      if (reference.context === "previous") {
        checkPreviousReference(reference.path, previous, report);
        continue;
      }
      if (typeof first !== "string" || first === "*") continue;
      if (reference.context === "run" && !RUN_FIELDS.includes(first)) {
        report(
          `\`run.${first}\` does not exist; run has ${RUN_FIELDS.join(", ")}`,
          "unknown_run_field",
        );
      } else if (reference.context === "inputs" && !inputs.has(first)) {
        const suggestion = closest(first, inputs);
        report(
          `unknown input \`${first}\``,
          "unknown_input",
          suggestion
            ? `did you mean \`${suggestion}\`?`
            : inputs.size
              ? `declared inputs: ${[...inputs].join(", ")}`
              : "this pipeline declares no `inputs`",
          "error",
          { text: `inputs.${first}`, at: "inputs.".length },
        );
      } else if (reference.context === "env" && !env.has(first)) {
        report(
          `\`env.${first}\` is not set in the pipeline's \`env\``,
          "unknown_env",
          undefined,
          "warning",
        );
      } else if (reference.context === "steps") {
        checkStepReference(model, reference.path, report);
      }
    }
  });
}

/** References: what every expression reads exists where it is read. */
export function referencesPass(model: CheckModel): void {
  for (const step of model.steps) {
    if (step.id === undefined) continue;
    for (const key of Object.keys(step.raw)) {
      if (key === "id" || key === "name") continue;
      checkValue(
        model,
        step.raw[key],
        ["steps", step.index, key],
        step.fanOut && key !== "for_each",
        readsPrevious(step, key) ? { step } : { hint: previousHint(step, key) },
      );
    }
  }
  if (model.data.outputs !== undefined)
    checkValue(model, model.data.outputs, ["outputs"], false, {
      hint: previousHint(undefined, "outputs"),
    });
}
