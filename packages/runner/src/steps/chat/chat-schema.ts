import { type Static, Type } from "@sinclair/typebox";
import { orExpression } from "../../pipeline/schema-helpers.js";

const ContentPart = Type.Union([
  Type.Object({ type: Type.Literal("text"), text: Type.String() }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal("image_url"),
      image_url: Type.Object({ url: Type.String() }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
]);

const Message = Type.Object(
  {
    role: Type.Union([
      Type.Literal("system"),
      Type.Literal("user"),
      Type.Literal("assistant"),
      Type.Literal("tool"),
    ]),
    content: Type.Union([Type.String(), Type.Array(ContentPart)]),
    name: Type.Optional(Type.String()),
    tool_call_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** A tool the model may call, with its implementation (`run` argv or a sub-`pipeline`). */
export const ChatToolSchema = Type.Object(
  {
    name: Type.String({
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      description: "Function name the model calls.",
    }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "JSON Schema of the arguments." }),
    ),
    run: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 1,
        description:
          "Command as an argv list (no shell); gets the arguments as JSON on stdin, answers on stdout.",
      }),
    ),
    pipeline: Type.Optional(
      Type.String({
        minLength: 1,
        description: "A sub-pipeline file; its inputs are the arguments.",
      }),
    ),
    timeout: Type.Optional(
      Type.Union([
        Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$" }),
        Type.Integer({ minimum: 1 }),
      ]),
    ),
  },
  { additionalProperties: false },
);

const ToolChoice = Type.Union([
  Type.String({ description: "`auto`, `none`, `required`, or the name of a defined tool." }),
  Type.Object({ name: Type.String() }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal("function"),
      function: Type.Object({ name: Type.String() }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
]);

/** Fields of a chat step body (also the shape of `defaults.chat`). */
export const chatProperties = {
  model: Type.Optional(Type.String({ description: "Chat model id, as the service lists it." })),
  system: Type.Optional(Type.String({ description: "System message (shorthand)." })),
  prompt: Type.Optional(Type.String({ description: "User message (shorthand)." })),
  messages: Type.Optional(orExpression(Type.Array(Message, { minItems: 1 }))),
  images: Type.Optional(
    orExpression(
      Type.Array(Type.String(), { description: "Local files (sent as data URIs) or URLs." }),
    ),
  ),
  stream: Type.Optional(Type.Boolean()),
  json: Type.Optional(
    Type.Boolean({ description: "Ask for a JSON object; parsed into outputs.json." }),
  ),
  schema: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: "JSON Schema the reply must match.",
    }),
  ),
  temperature: Type.Optional(orExpression(Type.Number(), { description: "0 to 2." })),
  top_p: Type.Optional(orExpression(Type.Number(), { description: "0 to 1." })),
  max_tokens: Type.Optional(orExpression(Type.Integer({ minimum: 1 }))),
  stop: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description: "At most 4 stop sequences.",
    }),
  ),
  tool_choice: Type.Optional(ToolChoice),
  tools: Type.Optional(Type.Array(ChatToolSchema)),
  max_tool_rounds: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  json_attempts: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10,
      description: "Re-asks when JSON is invalid (default 3).",
    }),
  ),
};

/**
 * Body of a `chat:` step.
 *
 * @example
 * ```yaml
 * chat: { model: reel-chat-1, system: You write JSON., prompt: "Scenes of ${{ inputs.story }}", json: true }
 * ```
 */
export const ChatStepSchema = Type.Object(chatProperties, {
  additionalProperties: false,
  description: "Ask a chat model. Outputs: text, json, usage, messages.",
});

/** A chat step body as written in the pipeline. */
export type ChatStepSpec = Static<typeof ChatStepSchema>;

/** What `defaults.<kind>` may hold: any of the body's own fields, each on its own. */
export const ChatDefaultsSchema = Type.Partial(
  Type.Object(chatProperties, { additionalProperties: false }),
);
