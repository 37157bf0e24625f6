import type { IncomingMessage } from "node:http";

/** The most a form of the studio sends (a prompt and a few params). */
const MAX_BODY = 64 * 1024;

/**
 * A POST's JSON object body (at most 64 KiB), or undefined when it is not one.
 * @example const fields = await readJsonBody(request);
 */
export async function readJsonBody(
  request: IncomingMessage,
): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
