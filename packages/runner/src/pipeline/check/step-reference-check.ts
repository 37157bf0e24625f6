import { closest } from "../schema-errors.js";
import type { CheckedStep, CheckModel } from "./check-model.js";

/** Reports a problem of the expression being checked. */
export type ReferenceReport = (
  message: string,
  code: string,
  hint?: string,
  severity?: "error" | "warning",
  needle?: { text: string; at: number },
) => void;

/**
 * The names of a step's outputs, when its kind says them (an object type that lists them).
 * @example outputNames(model.byId.get("clips")!) // ["file", "probe", …]
 */
export function outputNames(step: CheckedStep): readonly string[] | undefined {
  if (!step.kind || !step.merged) return undefined;
  const type = step.kind.outputs(step.merged);
  const names = type.type === "object" ? Object.keys(type.properties) : [];
  return names.length > 0 ? names : undefined;
}

/**
 * `steps.<id>.outputs.<name>` (the path after `steps`): the step exists, only `outputs` and
 * `status` are read, a fan-out's outputs are a list, the name is one its kind makes, and an
 * output its kind may leave out is a warning.
 * @example checkStepReference(model, ["clips", "outputs", "*", "file"], report);
 */
export function checkStepReference(
  model: CheckModel,
  path: readonly (string | number)[],
  report: ReferenceReport,
): void {
  const [first, second, third, fourth] = path;
  if (typeof first !== "string") return;
  const step = model.byId.get(first);
  if (!step) {
    const suggestion = closest(first, model.byId.keys());
    report(
      `unknown step \`${first}\``,
      "unknown_step",
      suggestion ? `did you mean \`${suggestion}\`?` : undefined,
      "error",
      { text: `steps.${first}`, at: "steps.".length },
    );
    return;
  }
  if (second === undefined) return;
  if (second !== "outputs" && second !== "status") {
    report(
      `\`steps.${first}.${String(second)}\` does not exist; use \`steps.${first}.outputs.<name>\``,
      "unknown_output",
    );
    return;
  }
  if (second !== "outputs") return;
  if (step.fanOut && typeof third === "string" && third !== "*") {
    report(
      `step \`${first}\` runs for each item, so its outputs are a list: use \`steps.${first}.outputs.*.${third}\` or \`steps.${first}.outputs[0].${third}\``,
      "unknown_output",
    );
    return;
  }
  const name = step.fanOut
    ? third === "*" || typeof third === "number"
      ? fourth
      : undefined
    : third;
  if (typeof name !== "string" || name === "*") return;
  const names = outputNames(step);
  if (names && !names.includes(name)) {
    const suggestion = closest(name, names);
    report(
      `step \`${first}\` (${step.kind?.kind}) has no output \`${name}\``,
      "unknown_output",
      suggestion
        ? `did you mean \`${suggestion}\`? outputs: ${names.join(", ")}`
        : `outputs: ${names.join(", ")}`,
    );
    return;
  }
  const missing = step.merged ? step.kind?.conditionalOutputs?.(step.merged)[name] : undefined;
  if (missing) {
    report(
      `\`steps.${first}.outputs.${name}\` ${missing}`,
      "output_maybe_missing",
      undefined,
      "warning",
    );
  }
}
