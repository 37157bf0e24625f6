import type { RequestContext, SimulatorContext } from "../server/context.js";
import { writeWithBackpressure } from "../server/http-io.js";
import { dropConnection } from "../util/drop-connection.js";
import { createSeededRandom } from "../util/seeded-random.js";
import { sleep } from "../util/sleep.js";
import type { ChatReply } from "./chat-types.js";
import { tokenize } from "./count-tokens.js";

/** Identity of a completion shared by all its chunks. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

/** Content pieces of 1 to 3 tokens (seeded), so a reply always streams in several chunks. */
export function contentPieces(text: string, seed: number): string[] {
  const random = createSeededRandom(seed, "pieces", text);
  const tokens = tokenize(text);
  const trailing = text.slice(tokens.join("").length);
  const pieces: string[] = [];
  for (let index = 0; index < tokens.length; ) {
    const size = 1 + Math.floor(random() * 3);
    pieces.push(tokens.slice(index, index + size).join(""));
    index += size;
  }
  if (trailing) pieces.push(trailing);
  return pieces;
}

/** Argument pieces of a tool call, about 12 characters each. */
function argumentPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += 12) pieces.push(text.slice(index, index + 12));
  return pieces;
}

/**
 * Stream a reply as Server-Sent Events exactly like spec 4.4 / OpenAI: a role chunk, content (or
 * `tool_calls`) deltas, an empty-delta chunk with `finish_reason`, a usage chunk when asked, then
 * `data: [DONE]`. Applies a pending `drop` (cut after N content chunks) or `stall` fault.
 *
 * @example
 * await streamCompletion(context, simulator, head, reply, true);
 */
export async function streamCompletion(
  context: RequestContext,
  simulator: SimulatorContext,
  head: CompletionHead,
  reply: ChatReply,
  includeUsage: boolean,
): Promise<void> {
  const { response, signal } = context;
  const fault = context.fault;
  context.fault = undefined;
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  const base = {
    id: head.id,
    object: "chat.completion.chunk",
    created: head.created,
    model: head.model,
    system_fingerprint: "fp_reelsmith_sim",
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });

  const events: unknown[] = [];
  if (reply.toolCalls.length > 0) {
    events.push(chunk({ role: "assistant", content: null, refusal: null }));
    reply.toolCalls.forEach((call, index) => {
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: "function",
              function: { name: call.function.name, arguments: "" },
            },
          ],
        }),
      );
      for (const piece of argumentPieces(call.function.arguments)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
  } else {
    events.push(chunk({ role: "assistant", content: "", refusal: null }));
    for (const piece of contentPieces(reply.content ?? "", simulator.seed))
      events.push(chunk({ content: piece }));
  }
  events.push(chunk({}, reply.finishReason));
  if (includeUsage) events.push({ ...base, choices: [], usage: reply.usage });

  const faultAfter = fault
    ? 1 + (fault.kind === "drop" ? (fault.value ?? 2) : 2)
    : Number.POSITIVE_INFINITY;
  for (const [index, event] of events.entries()) {
    if (index === faultAfter && fault) {
      if (fault.kind === "drop") {
        await dropConnection(context.request.socket);
        return;
      }
      if (!(await sleep(fault.value ?? Number.POSITIVE_INFINITY, signal))) break;
    }
    if (!(await writeWithBackpressure(response, `data: ${JSON.stringify(event)}\n\n`))) return;
    if (simulator.chunkDelayMs > 0 && !(await sleep(simulator.chunkDelayMs, signal))) break;
  }
  if (signal.aborted) {
    response.destroy();
    return;
  }
  response.end("data: [DONE]\n\n");
}
