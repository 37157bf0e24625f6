import { InvalidRequestError } from "../errors/invalid-request-error.js";

const roles = new Set(["system", "user", "assistant", "tool", "developer"]);
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

function fail(field: string, message: string): never {
  throw new InvalidRequestError(field, `${field}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkRange(
  params: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): void {
  const value = params[field];
  if (value === undefined || value === null) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    fail(field, `expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
}

function checkContentPart(part: unknown, field: string, role: string): void {
  if (!isObject(part)) fail(field, "expected a content part object");
  if (part.type === "text") {
    if (typeof part.text !== "string") fail(`${field}.text`, "expected a string");
    return;
  }
  if (part.type === "image_url") {
    if (role !== "user")
      fail(`${field}.type`, `image parts are allowed in user messages only, not ${role}`);
    const image = part.image_url;
    if (!isObject(image)) fail(`${field}.image_url`, "expected an object { url }");
    const url = image.url;
    if (typeof url !== "string" || !/^(https?:\/\/|data:[\w.+-]+\/[\w.+-]+;base64,)/.test(url)) {
      fail(`${field}.image_url.url`, "expected an http(s) URL or a data:<mime>;base64,<data> URI");
    }
    return;
  }
  fail(`${field}.type`, `expected "text" or "image_url", got ${JSON.stringify(part.type)}`);
}

function checkMessage(message: unknown, field: string): void {
  if (!isObject(message)) fail(field, "expected a message object");
  const role = message.role;
  if (typeof role !== "string" || !roles.has(role)) {
    fail(
      `${field}.role`,
      `expected one of system, user, assistant, tool; got ${JSON.stringify(role)}`,
    );
  }
  const content = message.content;
  if (role === "assistant" && (content === null || content === undefined)) {
    if (!Array.isArray(message.tool_calls) || message.tool_calls.length === 0) {
      fail(`${field}.content`, "an assistant message needs content or tool_calls");
    }
  } else if (typeof content !== "string") {
    if (!Array.isArray(content))
      fail(`${field}.content`, "expected a string or an array of content parts");
    if (content.length === 0) fail(`${field}.content`, "expected at least one content part");
    content.forEach((part, index) => {
      checkContentPart(part, `${field}.content[${index}]`, role);
    });
  }
  if (
    role === "tool" &&
    (typeof message.tool_call_id !== "string" || message.tool_call_id === "")
  ) {
    fail(`${field}.tool_call_id`, "a tool message needs the tool_call_id it answers");
  }
  if (role === "assistant" && message.tool_calls !== undefined) {
    if (!Array.isArray(message.tool_calls)) fail(`${field}.tool_calls`, "expected an array");
    message.tool_calls.forEach((call, index) => {
      const where = `${field}.tool_calls[${index}]`;
      if (!isObject(call) || typeof call.id !== "string" || !isObject(call.function)) {
        fail(where, 'expected { id, type: "function", function: { name, arguments } }');
      }
      if (typeof call.function.name !== "string")
        fail(`${where}.function.name`, "expected a string");
    });
  }
}

function checkTools(tools: unknown): Set<string> {
  const names = new Set<string>();
  if (tools === undefined || tools === null) return names;
  if (!Array.isArray(tools)) fail("tools", "expected an array of tool definitions");
  tools.forEach((tool, index) => {
    const field = `tools[${index}]`;
    if (!isObject(tool) || tool.type !== "function") fail(`${field}.type`, 'expected "function"');
    const fn = tool.function;
    if (!isObject(fn)) fail(`${field}.function`, "expected { name, description?, parameters? }");
    if (typeof fn.name !== "string" || !toolNamePattern.test(fn.name)) {
      fail(`${field}.function.name`, "expected 1 to 64 letters, digits, _ or -");
    }
    if (names.has(fn.name))
      fail(`${field}.function.name`, `duplicate tool name ${JSON.stringify(fn.name)}`);
    names.add(fn.name);
    if (fn.description !== undefined && typeof fn.description !== "string") {
      fail(`${field}.function.description`, "expected a string");
    }
    if (fn.parameters !== undefined) {
      if (!isObject(fn.parameters))
        fail(`${field}.function.parameters`, "expected a JSON Schema object");
      if (fn.parameters.type !== undefined && fn.parameters.type !== "object") {
        fail(`${field}.function.parameters.type`, 'expected "object"');
      }
    }
  });
  return names;
}

/**
 * Checks chat parameters before anything is sent: `model`, non-empty `messages` with valid
 * roles and content parts, `temperature` 0–2, `top_p` 0–1, at most 4 `stop` sequences,
 * `max_tokens`, tool definitions and `tool_choice`. Throws `InvalidRequestError` whose
 * `field` names the offending parameter.
 *
 * @example
 * ```ts
 * validateChatParams({ model: "reel-chat-1", messages: [{ role: "user", content: "hi" }], top_p: 2 });
 * // throws InvalidRequestError { field: "top_p" }
 * ```
 */
export function validateChatParams(params: unknown): void {
  if (!isObject(params)) fail("params", "expected an object");
  if (typeof params.model !== "string" || params.model.trim() === "")
    fail("model", "expected a non-empty string");
  const messages = params.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    fail("messages", "expected a non-empty array");
  messages.forEach((message, index) => {
    checkMessage(message, `messages[${index}]`);
  });
  checkRange(params, "temperature", 0, 2);
  checkRange(params, "top_p", 0, 1);
  const stop = params.stop;
  if (stop !== undefined && stop !== null) {
    if (Array.isArray(stop)) {
      if (stop.length > 4) fail("stop", `at most 4 stop sequences, got ${stop.length}`);
      stop.forEach((item, index) => {
        if (typeof item !== "string" || item === "")
          fail(`stop[${index}]`, "expected a non-empty string");
      });
    } else if (typeof stop !== "string")
      fail("stop", "expected a string or an array of at most 4 strings");
  }
  const maxTokens = params.max_tokens;
  if (
    maxTokens !== undefined &&
    maxTokens !== null &&
    (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)
  ) {
    fail("max_tokens", `expected a whole number >= 1, got ${JSON.stringify(maxTokens)}`);
  }
  if (params.stream !== undefined && params.stream !== null && typeof params.stream !== "boolean") {
    fail("stream", "expected a boolean");
  }
  const names = checkTools(params.tools);
  const choice = params.tool_choice;
  if (choice !== undefined && choice !== null) {
    if (typeof choice === "string") {
      if (!["auto", "none", "required"].includes(choice))
        fail(
          "tool_choice",
          'expected "auto", "none", "required" or { type: "function", function: { name } }',
        );
      if (choice === "required" && names.size === 0)
        fail("tool_choice", '"required" needs at least one tool');
    } else {
      const name = isObject(choice) && isObject(choice.function) ? choice.function.name : undefined;
      if (typeof name !== "string")
        fail("tool_choice", 'expected { type: "function", function: { name } }');
      if (!names.has(name))
        fail("tool_choice.function.name", `no tool named ${JSON.stringify(name)} in tools`);
    }
  }
  const format = params.response_format;
  if (format !== undefined && format !== null) {
    if (
      !isObject(format) ||
      !["text", "json_object", "json_schema"].includes(format.type as string)
    ) {
      fail("response_format.type", 'expected "text", "json_object" or "json_schema"');
    }
  }
}
