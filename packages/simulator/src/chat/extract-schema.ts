import type { ChatMessage, JsonSchema } from "./chat-types.js";
import { textOf } from "./validate-chat-request.js";

/**
 * A JSON Schema the caller put in a system message (the first balanced `{…}` that parses and
 * looks like a schema: it has `type`, `properties` or `$schema`).
 *
 * @example
 * schemaFromSystem([{ role: "system", content: 'Reply in JSON matching {"type":"object","properties":{}}' }]);
 */
export function schemaFromSystem(messages: ChatMessage[]): JsonSchema | undefined {
  for (const message of messages) {
    if (message.role !== "system" && message.role !== "developer") continue;
    const text = textOf(message.content);
    for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
      const candidate = balancedObject(text, start);
      if (!candidate) continue;
      try {
        const value: unknown = JSON.parse(candidate);
        if (
          typeof value === "object" &&
          value !== null &&
          ("type" in value || "properties" in value || "$schema" in value)
        ) {
          return value as JsonSchema;
        }
      } catch {
        // Not JSON: keep looking.
      }
    }
  }
  return undefined;
}

function balancedObject(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}
