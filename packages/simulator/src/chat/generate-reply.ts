import { createSeededRandom, hashToUint32 } from "../util/seeded-random.js";
import type { ChatMessage, ChatReply, ChatRequest } from "./chat-types.js";
import { chooseTool, makeToolCall, toolResultsSinceLastUser } from "./choose-tool.js";
import { composeAnswer } from "./compose-answer.js";
import { composeText } from "./compose-text.js";
import { countTokens, tokenize } from "./count-tokens.js";
import { schemaFromSystem } from "./extract-schema.js";
import { fillSchema } from "./fill-schema.js";
import { storyOf } from "./story-text.js";
import { keywordsOf, splitSentences } from "./text-analysis.js";
import { textOf } from "./validate-chat-request.js";

/** Tokens counted for each image part of the prompt. */
export const imageTokens = 85;

function lastUserText(messages: ChatMessage[]): string {
  const users = messages.filter((message) => message.role === "user");
  return textOf(users[users.length - 1]?.content ?? "");
}

/** The text a JSON answer is filled from: the last user message, or the first one on a retry. */
function jsonSourceText(messages: ChatMessage[]): string {
  const users = messages.filter((message) => message.role === "user");
  const retried = messages.some((message) => message.role === "assistant");
  return textOf((retried ? users[0] : users[users.length - 1])?.content ?? "");
}

/** Prompt tokens: message text, 3 per message, 85 per image, the tool definitions. */
export function promptTokens(request: ChatRequest): number {
  let total = 3;
  for (const message of request.messages) {
    total += 3 + countTokens(textOf(message.content));
    if (Array.isArray(message.content))
      total += imageTokens * message.content.filter((part) => part.type === "image_url").length;
    for (const call of message.tool_calls ?? [])
      total += 3 + countTokens(call.function.name) + countTokens(call.function.arguments);
  }
  if (request.tools.length > 0) total += countTokens(JSON.stringify(request.tools));
  return total;
}

function jsonContent(request: ChatRequest, random: () => number, seed: number): string | undefined {
  const format = request.responseFormat;
  const source = jsonSourceText(request.messages);
  if (format.type === "json_schema")
    return JSON.stringify(fillSchema(format.schema, source, { seed, param: "response_format" }));
  const systemSchema = schemaFromSystem(request.messages);
  const systemWantsJson = request.messages.some(
    (message) =>
      (message.role === "system" || message.role === "developer") &&
      /json/i.test(textOf(message.content)),
  );
  if (systemSchema && (format.type === "json_object" || systemWantsJson))
    return JSON.stringify(fillSchema(systemSchema, source, { seed, param: "messages" }));
  if (format.type === "json_object") {
    const material = storyOf(source);
    return JSON.stringify({
      answer: splitSentences(material)[0] ?? material,
      keywords: keywordsOf(material).slice(0, 5),
      sentences: splitSentences(material).length,
      confidence: Math.round((0.5 + random() / 2) * 100) / 100,
    });
  }
  return undefined;
}

/**
 * How the model writes text: `plausible` (default) answers the request (a title when asked
 * for one, a summary, a short answer) without repeating it; `echo` restates the prompt
 * ("Sure. You asked: …"), quoting the first turn and the system message, for tests that
 * check what reached the model.
 */
export type ReplyStyle = "plausible" | "echo";

/**
 * The deterministic model: the same request and seed always give the same reply, and the reply
 * depends on the whole conversation. Calls a tool when one fits, fills JSON schemas from the
 * user's text, else writes text in `style`; then applies `stop` and `max_tokens`.
 *
 * @example
 * generateReply(validateChatRequest(body), 0); // { content: "The Paper Boat", finishReason: "stop", … }
 * generateReply(validateChatRequest(body), 0, "echo"); // { content: "Sure. You asked: …", … }
 */
export function generateReply(
  request: ChatRequest,
  seed: number,
  style: ReplyStyle = "plausible",
): ChatReply {
  const random = createSeededRandom(
    seed,
    request.seed ?? null,
    request.model.id,
    request.messages,
    request.tools,
    request.toolChoice,
    request.responseFormat,
    request.temperature,
    request.topP,
  );
  const prompt = promptTokens(request);
  const userText = lastUserText(request.messages);
  const tool = chooseTool(request, userText);
  if (tool) {
    const id = `call_${Math.floor(random() * 2 ** 48)
      .toString(36)
      .padStart(10, "0")}`;
    const call = makeToolCall(tool, userText, id);
    const completion = 3 + countTokens(call.function.name) + countTokens(call.function.arguments);
    return {
      content: null,
      toolCalls: [call],
      finishReason: "tool_calls",
      usage: usage(prompt, completion),
    };
  }
  let content =
    jsonContent(request, random, hashToUint32(`${seed}\u0000${request.seed ?? ""}`)) ??
    (style === "echo" ? composeText : composeAnswer)(
      request.messages,
      toolResultsSinceLastUser(request.messages),
      random,
    );
  let finishReason: ChatReply["finishReason"] = "stop";
  const stopAt = Math.min(
    ...request.stop.map((stop) => content.indexOf(stop)).filter((index) => index >= 0),
  );
  if (Number.isFinite(stopAt)) content = content.slice(0, stopAt);
  const tokens = tokenize(content);
  if (request.maxTokens !== undefined && tokens.length > request.maxTokens) {
    content = tokens.slice(0, request.maxTokens).join("");
    finishReason = "length";
  }
  return {
    content,
    toolCalls: [],
    finishReason,
    usage: usage(prompt, Math.min(tokens.length, request.maxTokens ?? tokens.length)),
  };
}

function usage(prompt: number, completion: number): ChatReply["usage"] {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}
