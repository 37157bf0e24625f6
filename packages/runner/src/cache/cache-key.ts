import { createHash, hash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";

/**
 * How a field of a request names local files, for the cache key (each file by its bytes):
 * - `"list"`: a file or a list of them (nested lists flattened), keyed as one flat list;
 * - `"value"`: a file, or a list of files, keyed in its own shape;
 * - `"values"`: an object any of whose values may name a file (a model's own `params`).
 * A file is a path string or an object with a `path`; URLs and data URIs count as written.
 */
export type InputFileField = "list" | "value" | "values";

/** JSON with object keys sorted, so equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Files up to this size are hashed from one read; larger ones a piece of this size at a time. */
const SMALL_FILE = 1 << 20;

/**
 * sha256 of a file's contents.
 * @example await hashFile("scene.png") // "9f86d08…"
 */
export async function hashFile(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    // A small file (a clip, an image) is read whole into a buffer of its size: a stream's
    // 64 KiB buffer per file was most of a long fan-out's memory churn.
    if (size <= SMALL_FILE) return hash("sha256", await handle.readFile(), "hex");
    // A large one (a feature-length final) through one buffer read into again and again: a
    // read stream's new 64 KiB buffer per piece left a file's size of garbage outside the
    // heap, which a collection frees only later.
    const digest = createHash("sha256");
    const piece = Buffer.allocUnsafe(SMALL_FILE);
    for (;;) {
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      if (bytesRead === 0) break;
      digest.update(piece.subarray(0, bytesRead));
    }
    return digest.digest("hex");
  } finally {
    await handle.close();
  }
}

function isLocalPath(value: string): boolean {
  return !/^(https?:|data:)/i.test(value);
}

/** The absolute path of a local file an entry of a request names, when there is one. */
function localFile(path: unknown, baseDir: string): string | undefined {
  if (typeof path !== "string" || !isLocalPath(path)) return undefined;
  const absolute = isAbsolute(path) ? path : resolve(baseDir, path);
  return existsSync(absolute) && statSync(absolute).isFile() ? absolute : undefined;
}

/**
 * An entry of a request as its key counts it: a local file by its bytes alone (`{ sha256 }`
 * in place of its path, or of an object's `path`), anything else as it is.
 */
async function byBytes(entry: unknown, baseDir: string): Promise<unknown> {
  if (typeof entry === "string") {
    const file = localFile(entry, baseDir);
    return file ? { sha256: await hashFile(file) } : entry;
  }
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return entry;
  const { path, ...rest } = entry as { path?: unknown };
  const file = localFile(path, baseDir);
  return file ? { ...rest, sha256: await hashFile(file) } : entry;
}

/** Each entry of a list {@link byBytes}, in order. */
async function everyByBytes(entries: readonly unknown[], baseDir: string): Promise<unknown[]> {
  const keyed: unknown[] = [];
  for (const entry of entries) keyed.push(await byBytes(entry, baseDir));
  return keyed;
}

/** A field's value as its key counts it: each local file it names by its bytes ({@link InputFileField}). */
async function fieldByBytes(
  value: unknown,
  shape: InputFileField,
  baseDir: string,
): Promise<unknown> {
  if (shape === "list")
    return everyByBytes((Array.isArray(value) ? value : [value]).flat(2), baseDir);
  if (shape === "value")
    return Array.isArray(value) ? everyByBytes(value, baseDir) : byBytes(value, baseDir);
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const named: [string, unknown][] = [];
  for (const [name, entry] of Object.entries(value))
    named.push([name, await byBytes(entry, baseDir)]);
  return Object.fromEntries(named);
}

/**
 * The cache key of a fully resolved step request: the service that answers it (its
 * `serviceIdentity`, never its key), kind, every parameter (defaults merged) but those in
 * `ignore`, and each local input file its `inputFiles` fields name by its bytes alone, not its
 * path: the same keyframe made again in another run's directory asks for the same clip.
 * @example await cacheKey(kind.kind, request, pipelineDir, { service: "https://api.example.com/v1", ...kind.cache })
 */
export async function cacheKey(
  kind: string,
  fullSpec: Record<string, unknown>,
  baseDir: string,
  options: {
    service: string;
    ignore?: readonly string[];
    inputFiles?: Readonly<Record<string, InputFileField>>;
  },
): Promise<string> {
  const ignore = options.ignore ?? [];
  const spec: Record<string, unknown> = Object.fromEntries(
    Object.entries(fullSpec).filter(([field]) => !ignore.includes(field)),
  );
  for (const [field, shape] of Object.entries(options.inputFiles ?? {})) {
    if (spec[field] !== undefined) spec[field] = await fieldByBytes(spec[field], shape, baseDir);
  }
  // `files` stays, empty: the key of a request that names no local file is what it was when
  // files were keyed by their paths here.
  return createHash("sha256")
    .update(canonicalJson({ version: 2, service: options.service, kind, spec, files: {} }))
    .digest("hex");
}
