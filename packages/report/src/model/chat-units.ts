import type { ChatMessageView, ChatUnit } from "./report-model.js";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        const p = part as { type?: string; text?: unknown; image_url?: { url?: unknown } };
        if (p.type === "text") return String(p.text ?? "");
        if (p.type === "image_url") {
          const url = String(p.image_url?.url ?? "");
          // Data URIs are whole images: the page names them instead of inlining them.
          return url.startsWith("data:") ? "[image]" : `[image ${url}]`;
        }
        return "";
      })
      .join("\n");
  }
  return content === null || content === undefined ? "" : JSON.stringify(content);
}

/** The messages of a chat step's `messages` output, as the page shows them. */
export function messageViews(messages: unknown): ChatMessageView[] {
  if (!Array.isArray(messages)) return [];
  return messages.map((message) => {
    const m = (message ?? {}) as {
      role?: unknown;
      content?: unknown;
      tool_calls?: unknown;
      tool_call_id?: unknown;
    };
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
    return {
      role: String(m.role ?? "?"),
      content: textOf(m.content),
      toolCalls: calls.map((call) => {
        const fn = (call as { function?: { name?: unknown; arguments?: unknown } }).function;
        return { name: String(fn?.name ?? "?"), arguments: String(fn?.arguments ?? "") };
      }),
      ...(typeof m.tool_call_id === "string" ? { toolCallId: m.tool_call_id } : {}),
    };
  });
}

/**
 * One chat unit of the report: its request's model, the conversation (messages, tool calls
 * and tool answers), the final text and the JSON output, and its tokens as the cost table
 * counts them: those the ledger says the run paid for (0 for an answer served from the
 * cache, whose own usage is then the tokens it saved).
 *
 * @example
 * chatUnitOf("storyboard", undefined, spec, outputs, "succeeded", { cached: true }); // tokens 0, savedTokens 214
 */
export function chatUnitOf(
  step: string,
  index: number | undefined,
  spec: Record<string, unknown>,
  outputs: Record<string, unknown> | undefined,
  status: string,
  spending: { cached?: boolean; spentTokens?: number | undefined } = {},
): ChatUnit {
  const usage = outputs?.usage as { total_tokens?: unknown } | undefined;
  let messages = messageViews(outputs?.messages);
  if (messages.length === 0) {
    // Not answered (yet): show what was asked.
    const asked: unknown[] = [];
    if (spec.system !== undefined) asked.push({ role: "system", content: spec.system });
    if (Array.isArray(spec.messages)) asked.push(...spec.messages);
    if (spec.prompt !== undefined) asked.push({ role: "user", content: spec.prompt });
    messages = messageViews(asked);
  }
  return {
    step,
    ...(index === undefined ? {} : { index }),
    ...(spec.model === undefined ? {} : { model: String(spec.model) }),
    status,
    ...(typeof outputs?.text === "string" ? { text: outputs.text } : {}),
    ...(outputs && "json" in outputs ? { json: outputs.json } : {}),
    messages,
    ...tokensOf(usage?.total_tokens, spending),
  };
}

function tokensOf(
  used: unknown,
  spending: { cached?: boolean; spentTokens?: number | undefined },
): Pick<ChatUnit, "tokens" | "savedTokens"> {
  const answer = typeof used === "number" ? used : undefined;
  if (spending.cached) return { tokens: 0, ...(answer ? { savedTokens: answer } : {}) };
  const tokens = spending.spentTokens ?? answer;
  return tokens === undefined ? {} : { tokens };
}
