import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { ImageContentPart } from "../chat/types.js";
import { InvalidRequestError } from "../errors/invalid-request-error.js";

const mimeByExtension: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** Guesses an image type from its first bytes (PNG, JPEG, GIF, WebP). */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  ) {
    return "image/webp";
  }
  return undefined;
}

/**
 * An image content part for a chat message, from a file path or bytes, as a
 * `data:<mime>;base64,…` URI. The type comes from `mime`, else the bytes, else the file
 * extension. An http(s) or data: URL string is passed through unchanged.
 *
 * @example
 * ```ts
 * const messages = [{ role: "user", content: [{ type: "text", text: "What is this?" }, await imagePart("photo.png")] }];
 * ```
 */
export async function imagePart(
  fileOrBuffer: string | Uint8Array,
  mime?: string,
): Promise<ImageContentPart> {
  if (typeof fileOrBuffer === "string" && /^(https?:\/\/|data:)/i.test(fileOrBuffer)) {
    return { type: "image_url", image_url: { url: fileOrBuffer } };
  }
  const bytes = typeof fileOrBuffer === "string" ? await readFile(fileOrBuffer) : fileOrBuffer;
  const type =
    mime ??
    sniffImageType(bytes) ??
    (typeof fileOrBuffer === "string"
      ? mimeByExtension[extname(fileOrBuffer).toLowerCase()]
      : undefined);
  if (!type) {
    throw new InvalidRequestError(
      "mime",
      'Cannot tell the image type: pass `mime` (e.g. "image/png").',
    );
  }
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return { type: "image_url", image_url: { url: `data:${type};base64,${base64}` } };
}
