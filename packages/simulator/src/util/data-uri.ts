/** A decoded `data:<mime>;base64,<data>` URI. */
export interface DataUri {
  mime: string;
  bytes: Buffer;
}

/**
 * Decode a base64 data URI; undefined when `url` is not one or its payload is not base64.
 *
 * @example
 * parseDataUri("data:image/png;base64,iVBORw0KGgo="); // { mime: "image/png", bytes: <Buffer 89 50 4e 47 ...> }
 */
export function parseDataUri(url: string): DataUri | undefined {
  const match = /^data:([\w.+-]+\/[\w.+-]+)(?:;[\w-]+=[^;,]*)*;base64,([A-Za-z0-9+/=\s_-]*)$/.exec(
    url,
  );
  if (!match) return undefined;
  const payload = (match[2] ?? "").replace(/\s+/g, "");
  if (payload.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(payload)) return undefined;
  return { mime: (match[1] ?? "").toLowerCase(), bytes: Buffer.from(payload, "base64") };
}

/** True for an http(s) URL. */
export function isHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}
