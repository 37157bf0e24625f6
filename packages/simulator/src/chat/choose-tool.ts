import type { ChatMessage, ChatRequest, ToolCall, ToolDefinition } from "./chat-types.js";
import { fillSchema } from "./fill-schema.js";
import { identifierWords, keywordsOf, stem } from "./text-analysis.js";
import { textOf } from "./validate-chat-request.js";

/** A tool result found in the conversation after the last user message. */
export interface ToolResult {
  name: string;
  content: string;
}

/** Tool results given since the last user message, with the names of the calls they answer. */
export function toolResultsSinceLastUser(messages: ChatMessage[]): ToolResult[] {
  const lastUser = messages.map((message) => message.role).lastIndexOf("user");
  const names = new Map<string, string>();
  for (const message of messages)
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  return messages
    .slice(lastUser + 1)
    .filter((message) => message.role === "tool")
    .map((message) => ({
      name: names.get(message.tool_call_id ?? "") ?? "tool",
      content: textOf(message.content),
    }));
}

/** How well a tool matches a text: shared stems with its name (×2) and description (×1). */
export function toolScore(tool: ToolDefinition, text: string): number {
  const words = new Set(keywordsOf(text).map(stem));
  const nameWords = identifierWords(tool.name).map(stem);
  const descriptionWords = keywordsOf(tool.description).map(stem);
  let score = 0;
  for (const word of new Set(nameWords)) if (words.has(word)) score += 2;
  for (const word of new Set(descriptionWords)) if (words.has(word)) score += 1;
  return score;
}

/**
 * The tool to call for this request, or undefined to answer in text: the one `tool_choice` names,
 * else the best match of the user's text (`auto` needs a match; `required` takes the best anyway).
 * Once tool results follow the last user message the model answers in text.
 *
 * @example
 * chooseTool(request, "What's the weather in Paris?"); // { name: "get_weather", ... }
 */
export function chooseTool(request: ChatRequest, userText: string): ToolDefinition | undefined {
  const choice = request.toolChoice;
  if (request.tools.length === 0 || choice === "none") return undefined;
  if (toolResultsSinceLastUser(request.messages).length > 0) return undefined;
  if (typeof choice === "object") return request.tools.find((tool) => tool.name === choice.name);
  let best: ToolDefinition | undefined;
  let bestScore = 0;
  for (const tool of request.tools) {
    const score = toolScore(tool, userText);
    if (score > bestScore) {
      best = tool;
      bestScore = score;
    }
  }
  return best ?? (choice === "required" ? request.tools[0] : undefined);
}

/**
 * A tool call with arguments made from the user's text, valid against the tool's `parameters`.
 *
 * @example
 * makeToolCall(weatherTool, "What's the weather in Paris?", "call_1"); // arguments '{"city":"Paris"}'
 */
export function makeToolCall(tool: ToolDefinition, userText: string, id: string): ToolCall {
  const args = fillSchema({ type: "object", ...tool.parameters }, userText, { param: "tools" });
  return { id, type: "function", function: { name: tool.name, arguments: JSON.stringify(args) } };
}
