import { createHash, hash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";

/** Keys of a step body whose string values name local input files hashed into the cache key. */
const FILE_FIELDS = new Set(["image", "images"]);
/** Keys of a step body holding named values, any of which may name a local file (a video's image `params`). */
const FILE_MAPS = new Set(["params"]);

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

/**
 * The cache key of a fully resolved step request: the service that answers it (its
 * `serviceIdentity`, never its key), kind, every parameter (defaults merged) but those in
 * `ignore`, and the sha256 of every local input file it names (`image`, `images`, and any
 * value of `params` that is a local file). The local files of the `inputFiles` fields are
 * keyed by their sha256 alone, not their paths.
 * @example await cacheKey("video", { model: "reel-video-1", prompt: "a cat" }, "/pipelines", { service: "https://api.example.com/v1" })
 */
export async function cacheKey(
  kind: string,
  fullSpec: Record<string, unknown>,
  baseDir: string,
  options: { service: string; ignore?: readonly string[]; inputFiles?: readonly string[] },
): Promise<string> {
  const ignore = options.ignore ?? [];
  const spec: Record<string, unknown> = Object.fromEntries(
    Object.entries(fullSpec).filter(([field]) => !ignore.includes(field)),
  );
  // Fields whose local files count by their bytes alone: the same reference made in another
  // run (another run directory) asks for the same result.
  for (const field of options.inputFiles ?? []) {
    if (spec[field] === undefined) continue;
    const entries = (Array.isArray(spec[field]) ? (spec[field] as unknown[]) : [spec[field]]).flat(
      2,
    );
    const keyed: unknown[] = [];
    for (const entry of entries) {
      const path = typeof entry === "string" ? entry : undefined;
      const absolute =
        path && isLocalPath(path) ? (isAbsolute(path) ? path : resolve(baseDir, path)) : undefined;
      keyed.push(
        absolute && existsSync(absolute) && statSync(absolute).isFile()
          ? { sha256: await hashFile(absolute) }
          : entry,
      );
    }
    spec[field] = keyed;
  }
  const named: string[] = [];
  for (const [field, value] of Object.entries(spec)) {
    if (FILE_MAPS.has(field) && value && typeof value === "object" && !Array.isArray(value)) {
      for (const entry of Object.values(value)) if (typeof entry === "string") named.push(entry);
      continue;
    }
    if (!FILE_FIELDS.has(field)) continue;
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (typeof entry === "string") named.push(entry);
      else if (typeof (entry as { path?: unknown } | null)?.path === "string")
        named.push((entry as { path: string }).path);
    }
  }
  const files: Record<string, string> = {};
  for (const path of named) {
    if (!isLocalPath(path)) continue;
    const absolute = isAbsolute(path) ? path : resolve(baseDir, path);
    if (existsSync(absolute) && statSync(absolute).isFile()) files[path] = await hashFile(absolute);
  }
  return createHash("sha256")
    .update(canonicalJson({ version: 2, service: options.service, kind, spec, files }))
    .digest("hex");
}
