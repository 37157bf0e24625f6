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
      continue;
    }
    const bounds = (["minimum", "maximum"] as const).filter(
      (bound) => declaration[bound] !== undefined,
    );
    for (const bound of bounds) {
      if (declaration.type !== "number" && declaration.type !== "integer") {
        model.problems.push({
          path: ["inputs", name, bound],
          message: `\`${bound}\` applies to number and integer inputs; \`${name}\` is ${declaration.type}`,
          severity: "error",
          code: "input_bound_type",
        });
      }
    }
    const { minimum, maximum } = declaration;
    if (typeof minimum === "number" && typeof maximum === "number" && minimum > maximum) {
      model.problems.push({
        path: ["inputs", name, "minimum"],
        message: `input \`${name}\`'s minimum ${minimum} is above its maximum ${maximum}`,
        severity: "error",
        code: "input_bound_order",
      });
    } else if (
      typeof declaration.default === "number" &&
      ((typeof minimum === "number" && declaration.default < minimum) ||
        (typeof maximum === "number" && declaration.default > maximum))
    ) {
      model.problems.push({
        path: ["inputs", name, "default"],
        message: `default of input \`${name}\` (${declaration.default}) is outside its ${[
          typeof minimum === "number" ? `minimum ${minimum}` : "",
          typeof maximum === "number" ? `maximum ${maximum}` : "",
        ]
          .filter(Boolean)
          .join(" and ")}`,
        severity: "error",
        code: "input_default_range",
      });
    }
  }
}
