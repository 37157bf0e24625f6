import { type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import type { AnyStepKind } from "../steps/step-kind.js";
import { inputTypes } from "./input-types.js";
import { ExpressionString, orExpression } from "./schema-helpers.js";

export { inputTypes };

const Identifier = Type.String({
  pattern: "^(?!__proto__$|constructor$|prototype$)[A-Za-z_][A-Za-z0-9_-]*$",
  maxLength: 100,
  description: "Letters, digits, `_` and `-`, starting with a letter or `_`.",
});

/** One declared input. */
export const InputSchema = Type.Object(
  {
    type: Type.Union(
      inputTypes.map((name) => Type.Literal(name)),
      { description: "file: a path resolved relative to the pipeline file and checked to exist." },
    ),
    description: Type.Optional(Type.String()),
    default: Type.Optional(Type.Unknown()),
    required: Type.Optional(
      Type.Boolean({ description: "Default: true when there is no default." }),
    ),
    minimum: Type.Optional(
      Type.Number({ description: "number and integer inputs: the smallest value accepted." }),
    ),
    maximum: Type.Optional(
      Type.Number({ description: "number and integer inputs: the largest value accepted." }),
    ),
  },
  { additionalProperties: false },
);

const Timeout = Type.Union(
  [
    Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$" }),
    Type.Integer({ minimum: 1, description: "milliseconds" }),
  ],
  { description: 'A duration: "30s", "5m", "1h", "500ms", or milliseconds.' },
);

/** Fields every step has, whatever its kind. */
export const commonStepProperties = {
  id: Identifier,
  name: Type.Optional(Type.String()),
  needs: Type.Optional(Type.Array(Identifier, { description: "Steps that must finish first." })),
  if: Type.Optional(Type.String({ description: `A condition, with or without \`\${{ }}\`.` })),
  for_each: Type.Optional(
    orExpression(Type.Array(Type.Unknown()), {
      description:
        "Run once per element; `item` and `index` inside (and `previous` with `sequential: true`).",
    }),
  ),
  max_parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  sequential: Type.Optional(
    Type.Boolean({
      description:
        "With `for_each`: run the items in order, one at a time; each reads the item before it as `previous` (`previous.outputs`, `previous.item`, `previous.index`; null in the first).",
    }),
  ),
  retry: Type.Optional(
    Type.Object(
      {
        attempts: Type.Integer({ minimum: 1, maximum: 100 }),
        backoff_ms: Type.Optional(Type.Integer({ minimum: 0 })),
        factor: Type.Optional(Type.Number({ minimum: 1, maximum: 10 })),
      },
      { additionalProperties: false },
    ),
  ),
  timeout: Type.Optional(Timeout),
  continue_on_error: Type.Optional(Type.Boolean()),
  cache: Type.Optional(Type.Boolean()),
};

/** What `defaults.<kind>` may hold when the kind says nothing: any part of its object body. */
function defaultsOf(body: TSchema): TSchema {
  return body.type === "object" && body.properties
    ? Type.Partial(Type.Object(body.properties as TProperties, { additionalProperties: false }))
    : Type.Record(Type.String(), Type.Unknown());
}

/**
 * The whole pipeline file's schema for a set of step kinds (the built-in ones, or any set
 * with custom kinds): each step has the common fields and exactly one kind key, whose body
 * is the kind's schema; `defaults` holds per-kind values. The published JSON Schema
 * (`schema/pipeline.schema.json`) is this, for the built-in kinds, generated at build time.
 *
 * @example
 * ```ts
 * const schema = await createPipelineSchema(builtInStepKinds);
 * ```
 */
export async function createPipelineSchema(kinds: readonly AnyStepKind[]): Promise<TObject> {
  const bodies: Record<string, TSchema> = {};
  const defaults: Record<string, TSchema> = {};
  for (const kind of kinds) {
    const body = await kind.schema();
    bodies[kind.kind] = Type.Optional(body);
    defaults[kind.kind] = Type.Optional(
      kind.defaultsSchema ? await kind.defaultsSchema() : defaultsOf(body),
    );
  }
  const step = Type.Object(
    { ...commonStepProperties, ...bodies },
    {
      additionalProperties: false,
      oneOf: kinds.map((kind) => ({ required: [kind.kind] })),
    },
  );
  return Type.Object(
    {
      $schema: Type.Optional(Type.String()),
      name: Identifier,
      description: Type.Optional(Type.String()),
      inputs: Type.Optional(Type.Record(Identifier, InputSchema, { additionalProperties: false })),
      env: Type.Optional(
        Type.Record(
          Type.String({
            pattern: "^(?!__proto__$|constructor$|prototype$)[A-Za-z_][A-Za-z0-9_]*$",
          }),
          Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
          { additionalProperties: false },
        ),
      ),
      defaults: Type.Optional(Type.Object(defaults, { additionalProperties: false })),
      max_credits: Type.Optional(
        Type.Number({
          minimum: 0,
          description: "Stop submitting videos once this many credits are spent.",
        }),
      ),
      steps: Type.Array(step, { minItems: 1 }),
      outputs: Type.Optional(
        Type.Record(Identifier, Type.Unknown(), { additionalProperties: false }),
      ),
    },
    { additionalProperties: false, title: "reelsmith pipeline" },
  );
}

/** Keep the expression schema reachable for consumers composing their own schemas. */
export { ExpressionString };
