import { type ChatModelInfo, chatModels } from "../catalog/chat-models.js";
import { HttpError } from "../errors/http-error.js";
import { isHttpUrl, parseDataUri } from "../util/data-uri.js";
import type {
  ChatMessage,
  ChatRequest,
  ContentPart,
  ResponseFormat,
  ToolDefinition,
} from "./chat-types.js";
import { checkMessage } from "./validate-message.js";

const bad = HttpError.badRequest;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberIn(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw bad(
      `\`${field}\` must be a number from ${min} to ${max}; got ${JSON.stringify(value)}.`,
      field,
    );
  }
  return value;
}

/**
 * Check a chat completion body (spec 4.4 and 8) and the model's rules; throws a 400 naming the
 * field (404 for an unknown model).
 *
 * @example
 * const request = validateChatRequest({ model: "reel-chat-1", messages: [{ role: "user", content: "Hi" }] });
 */
export function validateChatRequest(
  body: Record<string, unknown>,
  models: readonly ChatModelInfo[] = chatModels,
): ChatRequest {
  if (body.model === undefined)
    throw bad("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  if (typeof body.model !== "string") throw bad("`model` must be a string.", "model");
  const model = models.find((candidate) => candidate.id === body.model);
  if (!model) {
    throw new HttpError(
      404,
      `The model '${body.model}' does not exist or you do not have access to it.`,
      {
        param: "model",
        code: "model_not_found",
      },
    );
  }
  if (body.messages === undefined)
    throw bad("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw bad("`messages` must be a non-empty array.", "messages");
  const messages: ChatMessage[] = body.messages.map((message, index) =>
    checkMessage(message, index),
  );

  for (const [index, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [partIndex, part] of message.content.entries()) {
      if (part.type === "image_url")
        checkImagePart(part, `messages[${index}].content[${partIndex}]`, model.images, model.id);
    }
  }

  const stream = body.stream ?? false;
  if (typeof stream !== "boolean") throw bad("`stream` must be a boolean.", "stream");
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream)
      throw bad("`stream_options` is only allowed when `stream` is true.", "stream_options");
    if (!isObject(body.stream_options))
      throw bad("`stream_options` must be an object.", "stream_options");
    const flag = body.stream_options.include_usage ?? false;
    if (typeof flag !== "boolean")
      throw bad(
        "`stream_options.include_usage` must be a boolean.",
        "stream_options.include_usage",
      );
    includeUsage = flag;
  }

  const temperature = numberIn(body, "temperature", 0, 2, 1);
  const topP = numberIn(body, "top_p", 0, 1, 1);
  numberIn(body, "presence_penalty", -2, 2, 0);
  numberIn(body, "frequency_penalty", -2, 2, 0);
  const maxField =
    body.max_completion_tokens !== undefined && body.max_completion_tokens !== null
      ? "max_completion_tokens"
      : "max_tokens";
  const maxTokens = body[maxField] ?? undefined;
  if (
    maxTokens !== undefined &&
    (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1)
  ) {
    throw bad(
      `\`${maxField}\` must be an integer from 1 up; got ${JSON.stringify(maxTokens)}.`,
      maxField,
    );
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1)
    throw bad("`n` must be 1 on this service.", "n");
  const seed = body.seed ?? undefined;
  if (seed !== undefined && (typeof seed !== "number" || !Number.isInteger(seed)))
    throw bad("`seed` must be an integer.", "seed");

  const stop = checkStop(body.stop);
  const tools = checkTools(body.tools);
  if (tools.length > 0 && !model.tools) {
    throw bad(`${model.id} does not call tools: remove \`tools\`.`, "tools", "tools_not_supported");
  }
  const toolChoice = checkToolChoice(body.tool_choice, tools);
  const responseFormat = checkResponseFormat(body.response_format);
  if (responseFormat.type !== "text" && !model.json) {
    throw bad(
      `${model.id} does not answer in JSON mode: remove \`response_format\`.`,
      "response_format",
      "json_not_supported",
    );
  }
  if (responseFormat.type === "json_object" && model.requiresJsonMention) {
    const mentions = messages.some(
      (message) =>
        (message.role === "system" || message.role === "developer") &&
        /json/i.test(textOf(message.content)),
    );
    if (!mentions) {
      throw bad(
        `'messages' must contain the word 'json' in a system message to use 'response_format' of type 'json_object' with ${model.id}.`,
        "messages",
      );
    }
  }
  return {
    model,
    messages,
    stream,
    includeUsage,
    temperature,
    topP,
    maxTokens: maxTokens as number | undefined,
    stop,
    tools,
    toolChoice,
    responseFormat,
    seed: seed as number | undefined,
  };
}

/** Text of a message's content (text parts joined). */
export function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content
    .filter((part): part is Extract<ContentPart, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

function checkImagePart(
  part: Extract<ContentPart, { type: "image_url" }>,
  param: string,
  allowed: boolean,
  model: string,
): void {
  if (!allowed) {
    throw bad(
      `${model} does not understand images: remove the image_url part or use a model that does.`,
      param,
      "image_not_supported",
    );
  }
  const url = part.image_url.url;
  if (url.startsWith("data:")) {
    const decoded = parseDataUri(url);
    if (!decoded?.mime.startsWith("image/")) {
      throw bad(
        "The image data URI is invalid: expected data:image/<type>;base64,<data>.",
        `${param}.image_url.url`,
        "invalid_image_url",
      );
    }
  } else if (!isHttpUrl(url)) {
    throw bad(
      "An image URL must be an http(s) address or a base64 data URI.",
      `${param}.image_url.url`,
      "invalid_image_url",
    );
  }
}

function checkStop(stop: unknown): string[] {
  if (stop === undefined || stop === null) return [];
  const list = typeof stop === "string" ? [stop] : stop;
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string" && item !== "")) {
    throw bad("`stop` must be a non-empty string or an array of non-empty strings.", "stop");
  }
  if (list.length > 4) throw bad(`\`stop\` takes at most 4 sequences; got ${list.length}.`, "stop");
  return list as string[];
}

function checkTools(tools: unknown): ToolDefinition[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw bad("`tools` must be an array.", "tools");
  return tools.map((tool, index) => {
    const fn = isObject(tool) ? tool.function : undefined;
    if (!isObject(tool) || tool.type !== "function" || !isObject(fn)) {
      throw bad(
        "Each tool must be { type: 'function', function: { name, description?, parameters? } }.",
        `tools[${index}]`,
      );
    }
    if (typeof fn.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      throw bad(
        "A function name must be 1 to 64 letters, digits, underscores or dashes.",
        `tools[${index}].function.name`,
      );
    }
    if (fn.description !== undefined && typeof fn.description !== "string") {
      throw bad("`description` must be a string.", `tools[${index}].function.description`);
    }
    if (fn.parameters !== undefined && !isObject(fn.parameters)) {
      throw bad(
        "`parameters` must be a JSON Schema object.",
        `tools[${index}].function.parameters`,
      );
    }
    return {
      name: fn.name,
      description: (fn.description as string | undefined) ?? "",
      parameters: (fn.parameters as Record<string, unknown>) ?? { type: "object", properties: {} },
    };
  });
}

function checkToolChoice(choice: unknown, tools: ToolDefinition[]): ChatRequest["toolChoice"] {
  if (choice === undefined || choice === null) return tools.length > 0 ? "auto" : "none";
  if (choice === "none") return "none";
  if (tools.length === 0)
    throw bad("`tool_choice` is only allowed when `tools` are given.", "tool_choice");
  if (choice === "auto" || choice === "required") return choice;
  const name = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
  if (typeof name !== "string")
    throw bad(
      "`tool_choice` must be 'none', 'auto', 'required' or { type: 'function', function: { name } }.",
      "tool_choice",
    );
  if (!tools.some((tool) => tool.name === name))
    throw bad(`\`tool_choice\` names '${name}', which is not among the tools.`, "tool_choice");
  return { name };
}

function checkResponseFormat(format: unknown): ResponseFormat {
  if (format === undefined || format === null) return { type: "text" };
  if (!isObject(format)) throw bad("`response_format` must be an object.", "response_format");
  if (format.type === "text" || format.type === "json_object") return { type: format.type };
  if (format.type === "json_schema") {
    const spec = format.json_schema;
    if (!isObject(spec) || !isObject(spec.schema)) {
      throw bad(
        "`response_format.json_schema` must be { name, schema: {...} }.",
        "response_format.json_schema",
      );
    }
    return {
      type: "json_schema",
      name: typeof spec.name === "string" ? spec.name : "response",
      schema: spec.schema,
    };
  }
  throw bad(
    "`response_format.type` must be 'text', 'json_object' or 'json_schema'.",
    "response_format.type",
  );
}
