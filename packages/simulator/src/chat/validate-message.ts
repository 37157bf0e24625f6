import { HttpError } from "../errors/http-error.js";
import type { ChatMessage, ContentPart, ToolCall } from "./chat-types.js";

const roles = new Set(["system", "developer", "user", "assistant", "tool"]);
const bad = HttpError.badRequest;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Check one message of `messages` (spec 2.5); a 400 naming `messages[i]…` otherwise.
 *
 * @example
 * checkMessage({ role: "user", content: "Hello" }, 0);
 */
export function checkMessage(message: unknown, index: number): ChatMessage {
  const at = `messages[${index}]`;
  if (!isObject(message)) throw bad("Each message must be an object.", at);
  const role = message.role;
  if (typeof role !== "string" || !roles.has(role)) {
    throw bad("`role` must be one of system, developer, user, assistant, tool.", `${at}.role`);
  }
  const checked: ChatMessage = {
    role: role as ChatMessage["role"],
    content: checkContent(message.content, role, at),
  };
  if (typeof message.name === "string") checked.name = message.name;
  if (role === "assistant" && message.tool_calls !== undefined && message.tool_calls !== null) {
    checked.tool_calls = checkToolCalls(message.tool_calls, `${at}.tool_calls`);
  }
  if (role === "assistant" && checked.content === null && !checked.tool_calls?.length) {
    throw bad("An assistant message needs `content` or `tool_calls`.", `${at}.content`);
  }
  if (role === "tool") {
    if (typeof message.tool_call_id !== "string" || message.tool_call_id === "") {
      throw bad(
        "A tool message needs `tool_call_id`.",
        `${at}.tool_call_id`,
        "missing_required_parameter",
      );
    }
    checked.tool_call_id = message.tool_call_id;
  }
  return checked;
}

function checkContent(content: unknown, role: string, at: string): ChatMessage["content"] {
  if (typeof content === "string") return content;
  if ((content === null || content === undefined) && role === "assistant") return null;
  if (!Array.isArray(content))
    throw bad("`content` must be a string or an array of content parts.", `${at}.content`);
  return content.map((part, partIndex): ContentPart => {
    const where = `${at}.content[${partIndex}]`;
    if (isObject(part) && part.type === "text" && typeof part.text === "string")
      return { type: "text", text: part.text };
    if (isObject(part) && part.type === "image_url") {
      const image = part.image_url;
      if (role !== "user") throw bad("Image parts are only allowed in user messages.", where);
      if (!isObject(image) || typeof image.url !== "string")
        throw bad(
          "An image part must be { type: 'image_url', image_url: { url } }.",
          `${where}.image_url`,
        );
      return { type: "image_url", image_url: { url: image.url } };
    }
    throw bad(
      "A content part must be { type: 'text', text } or { type: 'image_url', image_url: { url } }.",
      where,
    );
  });
}

function checkToolCalls(calls: unknown, at: string): ToolCall[] {
  if (!Array.isArray(calls)) throw bad("`tool_calls` must be an array.", at);
  return calls.map((call, index) => {
    const fn = isObject(call) ? call.function : undefined;
    if (
      !isObject(call) ||
      typeof call.id !== "string" ||
      !isObject(fn) ||
      typeof fn.name !== "string" ||
      typeof fn.arguments !== "string"
    ) {
      throw bad(
        "A tool call must be { id, type: 'function', function: { name, arguments } }.",
        `${at}[${index}]`,
      );
    }
    return { id: call.id, type: "function", function: { name: fn.name, arguments: fn.arguments } };
  });
}
