import {
  arrayOf,
  NUMBER,
  objectOf,
  STRING,
  type StaticType,
  typeFromSchema,
  UNKNOWN,
} from "../static-types.js";
import type { ChatStepSpec } from "./chat-schema.js";

const USAGE = objectOf({ prompt_tokens: NUMBER, completion_tokens: NUMBER, total_tokens: NUMBER });

/**
 * What a chat step gives: its `text`, the `json` its `schema` describes (any JSON with
 * `json: true`), the `usage` tokens and the whole conversation.
 * @example chatOutputTypes({ schema: { type: "array" } }).properties.json // { type: "array", … }
 */
export function chatOutputTypes(spec: ChatStepSpec): StaticType {
  const json = spec.schema !== undefined ? typeFromSchema(spec.schema) : UNKNOWN;
  return objectOf({ text: STRING, json, usage: USAGE, messages: arrayOf(objectOf({})) });
}

/** `json` is set only when the step asks for JSON. */
export function chatConditionalOutputs(spec: ChatStepSpec): Readonly<Record<string, string>> {
  return spec.json === true || spec.schema !== undefined
    ? {}
    : { json: "is only set when that step has `json: true` or `schema`" };
}
