import type { AnyStepKind, ModelField } from "../../steps/step-kind.js";
import { bodyPath, createCheckModel, isObject } from "./check-model.js";

/** A model a pipeline names, in the catalog its kind declares, and where its name is written. */
export interface ModelUse {
  /** The catalog's section name (`chat_models`, `video_models`, …). */
  catalog: string;
  model: string;
  /** The field of the kind that names it. */
  declared: ModelField;
  /** The document path of the text that names it: the field, or the input default it comes from. */
  path: (string | number)[];
  /** Where the name comes from when it is not written in the field: an input's default or value. */
  from?: string;
  /** The step that uses it (its id). */
  step: string | undefined;
}

/** `${{ inputs.NAME }}` and nothing else: a model field that is one input. */
const ONE_INPUT = /^\s*\$\{\{\s*inputs\s*\.\s*([A-Za-z_][\w-]*)\s*\}\}\s*$/;

/**
 * The models a pipeline's steps name (their kinds' `models` fields, `defaults.<kind>` merged):
 * a literal name where it is written; a field that is one input (`${{ inputs.video_model }}`)
 * by the input's value when `inputs` holds it (given, e.g. `--input`), else by its default,
 * pointed at where the default is written. Any other expression is known only at run time.
 * A name written once (a default, `defaults.video.model`) is one use.
 *
 * @example modelUsesOf(spec, kinds, { chat_model: "gpt-4o-mini" }) // [{ catalog: "chat_models", model: "gpt-4o-mini", from: "--input chat_model", … }]
 */
export function modelUsesOf(
  data: unknown,
  kinds: ReadonlyMap<string, AnyStepKind>,
  inputs?: Readonly<Record<string, unknown>>,
): ModelUse[] {
  if (!isObject(data)) return [];
  const model = createCheckModel(data, { kinds, baseDir: undefined });
  const uses = new Map<string, ModelUse>();
  for (const step of model.steps) {
    for (const declared of step.kind?.models ?? []) {
      const field = declared.field.split(".");
      let value: unknown = step.merged;
      for (const key of field) value = isObject(value) ? value[key] : undefined;
      if (typeof value !== "string") continue;
      let use: ModelUse | undefined;
      if (!value.includes("${{")) {
        use = { catalog: declared.catalog, model: value, declared, step: step.id, path: [] };
        use.path = bodyPath(step, field, model.defaults);
      } else {
        const name = ONE_INPUT.exec(value)?.[1];
        if (name === undefined) continue;
        const spec = model.inputs[name];
        const given = inputs && Object.hasOwn(inputs, name) ? inputs[name] : undefined;
        const fallback = isObject(spec) ? spec.default : undefined;
        if (typeof given === "string" && given !== fallback) {
          use = {
            catalog: declared.catalog,
            model: given,
            declared,
            step: step.id,
            path: bodyPath(step, field, model.defaults),
            from: `the value given for input \`${name}\``,
          };
        } else if (typeof fallback === "string" && (given === undefined || given === fallback)) {
          use = {
            catalog: declared.catalog,
            model: fallback,
            declared,
            step: step.id,
            path: ["inputs", name, "default"],
            from: `the default of input \`${name}\``,
          };
        }
      }
      if (!use) continue;
      const key = `${use.catalog}\n${use.model}\n${use.path.join("\n")}`;
      if (!uses.has(key)) uses.set(key, use);
    }
  }
  return [...uses.values()];
}
