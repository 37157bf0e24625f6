import { type TSchema, Type } from "@sinclair/typebox";

/**
 * A string holding at least one `${{ }}` expression: accepted wherever a value is only
 * known when the pipeline runs.
 *
 * @example
 * ```ts
 * Type.Union([Type.Integer(), ExpressionString]);
 * ```
 */
export const ExpressionString = Type.String({
  pattern: "\\$\\{\\{",
  description: `An expression \`\${{ … }}\` evaluated when the step runs.`,
});

/**
 * `schema` or an expression producing it.
 *
 * @example
 * ```ts
 * const Seconds = orExpression(Type.Integer({ minimum: 1 }));
 * ```
 */
export function orExpression<T extends TSchema>(schema: T, options?: { description?: string }) {
  return Type.Union([schema, ExpressionString], options);
}

/** A path inside the run directory (checked statically and again when the step runs). */
export const OutputPath = Type.String({
  minLength: 1,
  description: `A path relative to the run directory, e.g. \`clips/scene-\${{ index }}.mp4\`.`,
});

/** A video size, "WIDTHxHEIGHT". */
export const SizeString = Type.String({
  pattern: "^[1-9][0-9]{1,4}x[1-9][0-9]{1,4}$",
  description: "WIDTHxHEIGHT, e.g. 1280x720",
});
