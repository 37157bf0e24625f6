import { type Static, Type } from "@sinclair/typebox";
import { ChatStepSchema, chatProperties } from "../steps/chat/chat-schema.js";
import { FfmpegStepSchema, ffmpegOptionProperties } from "../steps/ffmpeg/ffmpeg-schema.js";
import { VideoStepSchema, videoProperties } from "../steps/video/video-schema.js";
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

/** The kinds a step can be, keyed by their YAML key. */
export const stepKindSchemas = {
  chat: ChatStepSchema,
  video: VideoStepSchema,
  ffmpeg: FfmpegStepSchema,
};

/** Fields every step has, whatever its kind. */
export const commonStepProperties = {
  id: Identifier,
  name: Type.Optional(Type.String()),
  needs: Type.Optional(Type.Array(Identifier, { description: "Steps that must finish first." })),
  if: Type.Optional(Type.String({ description: `A condition, with or without \`\${{ }}\`.` })),
  for_each: Type.Optional(
    orExpression(Type.Array(Type.Unknown()), {
      description: "Run once per element; `item` and `index` inside.",
    }),
  ),
  max_parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
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

/** One step: common fields and exactly one kind key. */
export const StepSchema = Type.Object(
  {
    ...commonStepProperties,
    chat: Type.Optional(ChatStepSchema),
    video: Type.Optional(VideoStepSchema),
    ffmpeg: Type.Optional(FfmpegStepSchema),
  },
  {
    additionalProperties: false,
    oneOf: Object.keys(stepKindSchemas).map((kind) => ({ required: [kind] })),
  },
);

/** Pipeline-wide settings per kind, merged under each step's own values. */
export const DefaultsSchema = Type.Object(
  {
    chat: Type.Optional(Type.Partial(Type.Object(chatProperties, { additionalProperties: false }))),
    video: Type.Optional(
      Type.Partial(Type.Object(videoProperties, { additionalProperties: false })),
    ),
    ffmpeg: Type.Optional(
      Type.Partial(Type.Object(ffmpegOptionProperties, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);

/**
 * The whole pipeline file. The published JSON Schema (`schema/pipeline.schema.json`) is
 * generated from this, so types and schema never drift.
 *
 * @example
 * ```ts
 * const spec: PipelineSpec = { name: "hello", steps: [{ id: "a", chat: { prompt: "hi" } }] };
 * ```
 */
export const PipelineSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    name: Identifier,
    description: Type.Optional(Type.String()),
    inputs: Type.Optional(Type.Record(Identifier, InputSchema, { additionalProperties: false })),
    env: Type.Optional(
      Type.Record(
        Type.String({ pattern: "^(?!__proto__$|constructor$|prototype$)[A-Za-z_][A-Za-z0-9_]*$" }),
        Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
        { additionalProperties: false },
      ),
    ),
    defaults: Type.Optional(DefaultsSchema),
    max_credits: Type.Optional(
      Type.Number({
        minimum: 0,
        description: "Stop submitting videos once this many credits are spent.",
      }),
    ),
    steps: Type.Array(StepSchema, { minItems: 1 }),
    outputs: Type.Optional(
      Type.Record(Identifier, Type.Unknown(), { additionalProperties: false }),
    ),
  },
  { additionalProperties: false, title: "reelsmith pipeline" },
);

/** A validated pipeline file. */
export type PipelineSpec = Static<typeof PipelineSchema>;
/** One step of a pipeline. */
export type StepSpec = Static<typeof StepSchema>;
/** One declared input. */
export type InputSpec = Static<typeof InputSchema>;

/** Keep the expression schema reachable for consumers composing their own schemas. */
export { ExpressionString };
