import type { ChatMessage, JSONSchema } from "./types.js";

function mentionsJSON(message: ChatMessage): boolean {
  if (message.role !== "system") return false;
  const text =
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => part.text).join(" ");
  return /json/i.test(text);
}

/** The sentence added to the system message when none mentions JSON (spec 4.4 rule). */
export function jsonInstruction(schema: JSONSchema | undefined): string {
  return schema
    ? `Reply with a single JSON object that matches this JSON Schema: ${JSON.stringify(schema)}`
    : "Reply with a single JSON object.";
}

/**
 * Returns a copy of `messages` in which a system message mentions JSON and carries the
 * schema when there is one: unchanged when no schema is given and a system message already
 * mentions JSON, else the instruction is appended to the first system message, or a new
 * system message is put first. A schema is always sent: a system prompt that says "JSON"
 * does not tell the model which shape is wanted.
 */
export function withJSONInstruction(
  messages: ChatMessage[],
  schema: JSONSchema | undefined,
): ChatMessage[] {
  if (schema === undefined && messages.some(mentionsJSON)) return [...messages];
  const instruction = jsonInstruction(schema);
  const index = messages.findIndex((message) => message.role === "system");
  if (index === -1) return [{ role: "system", content: instruction }, ...messages];
  const copy = [...messages];
  const system = copy[index] as Extract<ChatMessage, { role: "system" }>;
  copy[index] =
    typeof system.content === "string"
      ? { ...system, content: `${system.content}\n\n${instruction}` }
      : { ...system, content: [...system.content, { type: "text", text: instruction }] };
  return copy;
}

/** Parses a reply as JSON, tolerating a Markdown code fence around it. */
export function parseJSONReply(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  const candidate = fenced ? fenced[1]! : trimmed;
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    return { ok: false, error: `the reply is not valid JSON (${(error as Error).message})` };
  }
}
