import { randomBytes } from "node:crypto";
import type { RouteHandler } from "../server/context.js";
import { generateReply } from "./generate-reply.js";
import { streamCompletion } from "./stream-completion.js";
import { validateChatRequest } from "./validate-chat-request.js";

/**
 * `POST /v1/chat/completions`: check the body, run the deterministic model, answer with a
 * `chat.completion` or an SSE stream of `chat.completion.chunk`s.
 */
export const handleChatCompletion: RouteHandler = async (context, simulator) => {
  const body = await context.readJson();
  const request = validateChatRequest(body, simulator.catalog.chatModels);
  const reply = generateReply(request, simulator.seed, simulator.replies);
  simulator.stats.chatCompletion();
  const head = {
    id: `chatcmpl-${randomBytes(12).toString("base64url")}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model.id,
  };
  if (request.stream) {
    await streamCompletion(context, simulator, head, reply, request.includeUsage);
    return;
  }
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.content,
    refusal: null,
  };
  if (reply.toolCalls.length > 0) message.tool_calls = reply.toolCalls;
  // Written out, not `{ ...head, … }`: once optimized, Node 20's V8 gives an object a spread
  // starts a hidden class of its own on every call.
  await context.send(200, {
    id: head.id,
    object: "chat.completion",
    created: head.created,
    model: head.model,
    system_fingerprint: "fp_reelsmith_sim",
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: reply.usage,
  });
};
