import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { stepDefinitions } from "../steps/definitions.js";
import type { StepKindDefinition } from "../steps/step-kind.js";
import { commonStepProperties, DefaultsSchema, PipelineSchema } from "./pipeline-schema.js";

/** Any step kind definition, whatever its spec type. */
// biome-ignore lint/suspicious/noExplicitAny: definitions of every spec type are accepted
export type AnyStepKindDefinition = StepKindDefinition<any>;

const builtIn = new Set<string>(stepDefinitions.map((definition) => definition.kind));

/**
 * The pipeline schema for a given set of step kinds (the built-ins plus custom ones, or any
 * subset). With the built-in set this is `PipelineSchema` itself. Custom kinds get their
 * `defaults` as a free mapping.
 *
 * @example
 * ```ts
 * const schema = createPipelineSchema([...stepDefinitions, { kind: "echo", schema: Type.Object({ text: Type.String() }) }]);
 * ```
 */
export function createPipelineSchema(definitions: readonly AnyStepKindDefinition[]): TObject {
  const kinds = definitions.map((definition) => definition.kind);
  if (kinds.length === builtIn.size && kinds.every((kind) => builtIn.has(kind)))
    return PipelineSchema;
  const kindProperties: Record<string, TSchema> = {};
  const defaultProperties: Record<string, TSchema> = {};
  for (const definition of definitions) {
    kindProperties[definition.kind] = Type.Optional(definition.schema);
    const builtInDefaults = (DefaultsSchema.properties as Record<string, TSchema>)[definition.kind];
    defaultProperties[definition.kind] =
      builtIn.has(definition.kind) && builtInDefaults
        ? builtInDefaults
        : Type.Optional(Type.Record(Type.String(), Type.Unknown()));
  }
  const step = Type.Object(
    { ...commonStepProperties, ...kindProperties },
    { additionalProperties: false, oneOf: kinds.map((kind) => ({ required: [kind] })) },
  );
  return Type.Object(
    {
      ...PipelineSchema.properties,
      defaults: Type.Optional(Type.Object(defaultProperties, { additionalProperties: false })),
      steps: Type.Array(step, { minItems: 1 }),
    },
    { additionalProperties: false, title: "reelsmith pipeline" },
  );
}
