import { inputTypes } from "../input-types.js";
import { type CheckModel, isObject } from "./check-model.js";

function literalMatchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
    case "file":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    default:
      return isObject(value);
  }
}

/** Inputs: each declared default is of its input's type. */
export function inputsPass(model: CheckModel): void {
  for (const [name, declaration] of Object.entries(model.inputs)) {
    if (
      !isObject(declaration) ||
      typeof declaration.type !== "string" ||
      !inputTypes.includes(declaration.type as never)
    )
      continue;
    if (
      declaration.default !== undefined &&
      !literalMatchesType(declaration.type, declaration.default)
    ) {
      model.problems.push({
        path: ["inputs", name, "default"],
        message: `default of input \`${name}\` is not of type ${declaration.type}`,
        severity: "error",
        code: "input_default_type",
      });
    }
  }
}
