import { Blob } from "node:buffer";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { sniffImageType } from "../images/image-part.js";

/** A file to upload: a path on disk, bytes (a Buffer is a Uint8Array), or a Blob (a File keeps its name). */
export type FileInput = string | Uint8Array | globalThis.Blob;

/** A file read for a multipart body. */
export interface ReadFile {
  bytes: Uint8Array;
  filename: string;
  type: string;
}

const typeByExtension: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  webm: "audio/webm",
};

function typeOf(filename: string, bytes: Uint8Array): string {
  const extension = filename.split(".").pop()?.toLowerCase() ?? "";
  return typeByExtension[extension] ?? sniffImageType(bytes) ?? "application/octet-stream";
}

/**
 * Read a file to upload: a path (its name and type from the path), bytes (type sniffed for
 * images, else `fallbackName`'s), or a Blob. A missing path is an `InvalidRequestError`
 * naming `field`, before anything is sent.
 *
 * @example
 * const file = await readFileInput("sheet.png", "references[0]", "reference-1.png");
 */
export async function readFileInput(
  input: FileInput,
  field: string,
  fallbackName: string,
): Promise<ReadFile> {
  if (typeof input === "string") {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(input);
    } catch (error) {
      throw new InvalidRequestError(
        field,
        `cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    const filename = basename(input);
    return { bytes, filename, type: typeOf(filename, bytes) };
  }
  if (input instanceof Uint8Array) {
    const sniffed = sniffImageType(input);
    const filename = sniffed
      ? fallbackName.replace(/\.\w+$/, `.${sniffed.split("/")[1]}`)
      : fallbackName;
    return { bytes: input, filename, type: sniffed ?? typeOf(fallbackName, input) };
  }
  if (input && typeof input === "object" && typeof (input as Blob).arrayBuffer === "function") {
    const bytes = new Uint8Array(await input.arrayBuffer());
    const name = (input as { name?: unknown }).name;
    const filename = typeof name === "string" && name !== "" ? name : fallbackName;
    return { bytes, filename, type: input.type || typeOf(filename, bytes) };
  }
  throw new InvalidRequestError(
    field,
    "expected a file path, bytes (Buffer, Uint8Array) or a Blob",
  );
}

/** Append a read file to a form as a file part. */
export function appendFile(
  form: FormData | import("undici").FormData,
  name: string,
  file: ReadFile,
): void {
  const blob = new Blob([file.bytes], { type: file.type });
  (form as FormData).append(name, blob as unknown as globalThis.Blob, file.filename);
}
