import { Ajv, type ValidateFunction } from "ajv";
import { JSONResponseError } from "../errors/json-response-error.js";
import type { RequestOptions } from "../http/request-options.js";
import { compileSchema } from "./compile-schema.js";
import type { ChatCompletions } from "./completions.js";
import { parseJSONReply, withJSONInstruction } from "./json-instructions.js";
import type {
  ChatCompletion,
  ChatCompletionRequestFields,
  ChatMessage,
  JSONSchema,
  Usage,
} from "./types.js";
import { addUsage, emptyUsage } from "./usage.js";

/** Parameters of `chat.json()`: chat params (no `stream`) plus an optional schema. */
export type ChatJSONParams = Omit<
  ChatCompletionRequestFields,
  "stream" | "stream_options" | "response_format"
> & {
  [key: string]: unknown;
  /** JSON Schema the reply must match (checked with ajv). */
  schema?: JSONSchema;
  /** Requests in all, the first included (default 3). */
  maxAttempts?: number;
};

/** Result of `chat.json()`. */
export interface ChatJSONResult<T> {
  data: T;
  completion: ChatCompletion;
  /** The whole conversation, re-asks and the final assistant reply included. */
  messages: ChatMessage[];
  /** Summed over all attempts. */
  usage: Usage;
  attempts: number;
}

/** One ajv instance per client: compiled schemas are cached by it. */
export function createAjv(): Ajv {
  return new Ajv({ allErrors: true, strict: false });
}

function describeErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => {
    const where = error.instancePath === "" ? "(root)" : error.instancePath;
    const extra =
      error.keyword === "additionalProperties" ? ` (${JSON.stringify(error.params)})` : "";
    return `${where} ${error.message ?? "is invalid"}${extra}`;
  });
}

/** Runs the JSON-mode loop behind `client.chat.json()`. */
export async function runChatJSON<T>(
  completions: ChatCompletions,
  ajv: Ajv,
  params: ChatJSONParams,
  options: RequestOptions = {},
): Promise<ChatJSONResult<T>> {
  const { schema, maxAttempts = 3, ...rest } = params;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new TypeError(
      `Expected \`maxAttempts\` to be a whole number >= 1, got ${String(maxAttempts)}`,
    );
  }
  const validate = schema ? compileSchema(ajv, schema, "schema") : undefined;
  const messages = withJSONInstruction(rest.messages ?? [], schema);
  const usage = emptyUsage();
  let rawText = "";
  let finishReason: string | null = null;
  let problems: string[] = [];
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const completion = await completions.create(
      { ...rest, messages, stream: false, response_format: { type: "json_object" } },
      options,
    );
    addUsage(usage, completion.usage);
    const choice = completion.choices[0];
    rawText = choice?.message.content ?? "";
    finishReason = choice?.finish_reason ?? null;
    messages.push({ role: "assistant", content: rawText });
    const parsed = parseJSONReply(rawText);
    if (parsed.ok && (!validate || validate(parsed.value))) {
      return { data: parsed.value as T, completion, messages, usage, attempts: attempt };
    }
    problems = parsed.ok ? describeErrors(validate!) : [parsed.error];
    if (finishReason === "length")
      problems.push("the reply was cut off by max_tokens (finish_reason: length)");
    if (attempt < maxAttempts) {
      messages.push({
        role: "user",
        content: `Your previous reply was rejected:\n- ${problems.join("\n- ")}\nReply again with only the corrected JSON object.`,
      });
    }
  }
  throw new JSONResponseError(
    `No valid JSON reply after ${maxAttempts} attempt(s): ${problems.join("; ")}`,
    { rawText, finishReason, usage, validationErrors: problems, attempts: maxAttempts },
  );
}
