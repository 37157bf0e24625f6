import { extname } from "node:path";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import type { ImageInput } from "../videos/types.js";
import { sniffImageType } from "./image-part.js";

/** An image resolved for sending: either an address to pass on, or bytes with a type and name. */
export type ResolvedImage =
  | { kind: "url"; url: string }
  | { kind: "bytes"; bytes: Uint8Array; mimeType: string; filename: string };

const extensionByMime: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const mimeByExtension: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/**
 * What is wrong with a value given as an image, or undefined when it is a usable
 * {@link ImageInput}.
 *
 * @example
 * ```ts
 * checkImageInput("ftp://x/y.png"); // "expected an http(s) URL, a data: URI or bytes"
 * ```
 */
export function checkImageInput(value: unknown): string | undefined {
  try {
    resolveImageInput(value as ImageInput, "image");
    return undefined;
  } catch (error) {
    return InvalidRequestError.isInstance(error) ? error.message : String(error);
  }
}

/**
 * Resolves an image to an address (http(s) URL) or bytes with their type and a file name
 * (a data URI is decoded; raw bytes have their type sniffed). Throws InvalidRequestError
 * naming `field` when it is neither.
 *
 * @example
 * ```ts
 * resolveImageInput(pngBytes, "image"); // { kind: "bytes", mimeType: "image/png", filename: "image.png", … }
 * ```
 */
export function resolveImageInput(value: ImageInput, field: string): ResolvedImage {
  if (typeof value === "string") {
    if (/^https?:\/\//i.test(value)) return { kind: "url", url: value };
    const match = /^data:([^;,]+)?((?:;[^;,]*)*?);base64,(.*)$/is.exec(value);
    if (match) {
      const mimeType = (match[1] ?? "application/octet-stream").toLowerCase();
      const bytes = Buffer.from(match[3] ?? "", "base64");
      return { kind: "bytes", bytes, mimeType, filename: fileName(field, mimeType) };
    }
    throw new InvalidRequestError(
      field,
      `expected an http(s) URL, a base64 data: URI or bytes, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  if (value instanceof Uint8Array) return fromBytes(value, undefined, undefined, field);
  if (
    value &&
    typeof value === "object" &&
    (value as { data?: unknown }).data instanceof Uint8Array
  ) {
    const { data, mimeType, filename } = value as {
      data: Uint8Array;
      mimeType?: string;
      filename?: string;
    };
    return fromBytes(data, mimeType, filename, field);
  }
  throw new InvalidRequestError(
    field,
    "expected an http(s) URL, a base64 data: URI, bytes, or { data, mimeType?, filename? }",
  );
}

/**
 * The image as a string the reference dialect's JSON can carry: the URL itself, or a
 * `data:<type>;base64,…` URI of the bytes.
 *
 * @example
 * ```ts
 * imageAsURL(pngBytes, "image"); // "data:image/png;base64,iVBORw0…"
 * ```
 */
export function imageAsURL(value: ImageInput, field: string): string {
  if (typeof value === "string" && /^data:/i.test(value)) return value;
  const resolved = resolveImageInput(value, field);
  if (resolved.kind === "url") return resolved.url;
  const base64 = Buffer.from(
    resolved.bytes.buffer,
    resolved.bytes.byteOffset,
    resolved.bytes.byteLength,
  ).toString("base64");
  return `data:${resolved.mimeType};base64,${base64}`;
}

function fromBytes(
  bytes: Uint8Array,
  mimeType: string | undefined,
  filename: string | undefined,
  field: string,
): ResolvedImage {
  const type =
    mimeType ??
    sniffImageType(bytes) ??
    (filename ? mimeByExtension[extname(filename).toLowerCase()] : undefined);
  if (!type) {
    throw new InvalidRequestError(
      field,
      'cannot tell the image type from its bytes: pass { data, mimeType } (e.g. "image/png")',
    );
  }
  return { kind: "bytes", bytes, mimeType: type, filename: filename ?? fileName(field, type) };
}

function fileName(field: string, mimeType: string): string {
  const base = field.replace(/^params\./, "").replace(/[^\w-]+/g, "_") || "image";
  return `${base}.${extensionByMime[mimeType] ?? "bin"}`;
}
