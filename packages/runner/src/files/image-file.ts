import { closeSync, openSync, readSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ImageContentPart } from "@reelsmith/core";
import { InvalidImageError } from "../errors/invalid-image-error.js";

/**
 * Largest image file sent (bytes). An image travels base64-encoded inside a JSON body (4/3 of
 * its size), and the reference service takes bodies up to 16 MiB.
 */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** PNG, JPEG, GIF or WebP by the first bytes (the formats the service describes), else undefined. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39))
    return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP")
    return "image/webp";
  return undefined;
}

const describe = (bytes: Uint8Array): string =>
  bytes.length === 0
    ? "it is empty"
    : `its bytes are not a PNG, JPEG, GIF or WebP image (they start ${[...bytes.slice(0, 8)]
        .map((byte) => byte.toString(16).padStart(2, "0"))
        .join(" ")})`;

/**
 * Why a local file cannot be sent as an image (missing, not a file, empty, too large, not an
 * image by its bytes), or undefined when it can.
 *
 * @example
 * imageFileProblem("frames/first.png"); // undefined, or "it is empty", …
 */
export function imageFileProblem(file: string): string | undefined {
  let size: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) return "it is not a file";
    size = info.size;
  } catch {
    return "no such file";
  }
  if (size > MAX_IMAGE_BYTES) {
    return `it is ${size} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (10 MiB)`;
  }
  const head = Buffer.alloc(16);
  let read = 0;
  try {
    const fd = openSync(file, "r");
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  }
  const bytes = head.subarray(0, read);
  return sniffImage(bytes) ? undefined : describe(bytes);
}

/** Why a `data:` URI cannot be sent as an image, or undefined when it can. */
export function dataUriImageProblem(uri: string): string | undefined {
  const match = /^data:([^;,]*)(?:;[^;,]*)*;base64,(.*)$/is.exec(uri);
  if (!match) return "it is not a base64 data URI (data:image/png;base64,…)";
  const bytes = Buffer.from((match[2] ?? "").replace(/\s+/g, ""), "base64");
  if (bytes.length > MAX_IMAGE_BYTES) {
    return `it holds ${bytes.length} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (10 MiB)`;
  }
  return sniffImage(bytes) ? undefined : describe(bytes);
}

/**
 * The image content part for a step's image (a local file resolved from the pipeline's
 * folder, a data URI, or an http(s) URL passed on), after checking its bytes: a file that is
 * not an image throws InvalidImageError before anything is sent.
 *
 * @example
 * const part = await checkedImagePart("frames/first.png", pipelineDir);
 */
export async function checkedImagePart(value: string, baseDir: string): Promise<ImageContentPart> {
  // Loaded on use: validation (which shares this module) must not load the HTTP client.
  const { imagePart } = await import("@reelsmith/core");
  if (/^https?:/i.test(value)) return imagePart(value);
  if (/^data:/i.test(value)) {
    const problem = dataUriImageProblem(value);
    if (problem) throw new InvalidImageError(`${value.slice(0, 32)}…`, problem);
    return imagePart(value);
  }
  const file = isAbsolute(value) ? value : resolve(baseDir, value);
  const problem = imageFileProblem(file);
  if (problem) throw new InvalidImageError(value, problem);
  return imagePart(file);
}
