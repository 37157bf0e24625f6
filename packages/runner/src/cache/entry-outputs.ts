import type { CacheEntry } from "./cache-entry.js";

/**
 * An entry's outputs with each file it names at `pathOf(field, stored)`: a field's path, or an
 * item's in a copy of its list (`files.0`, `files.1`, …). Its stored outputs are not changed.
 * @example entryOutputs(entry, (_field, stored) => blobPath(cacheDir, stored.sha256)) // { file: ".reelsmith/cache/blobs/9f/9f86…", … }
 */
export function entryOutputs(
  entry: Pick<CacheEntry, "outputs" | "files">,
  pathOf: (field: string, stored: CacheEntry["files"][string]) => string,
): Record<string, unknown> {
  const outputs: Record<string, unknown> = { ...entry.outputs };
  for (const [field, value] of Object.entries(outputs))
    if (Array.isArray(value)) outputs[field] = [...value];
  for (const [field, stored] of Object.entries(entry.files ?? {})) {
    const item = listItem(field, outputs);
    if (item) item.list[item.at] = pathOf(field, stored);
    else outputs[field] = pathOf(field, stored);
  }
  return outputs;
}

/** The list and position a stored field `name.3` stands for, when `name` is a list output. */
export function listItem(
  field: string,
  outputs: Record<string, unknown>,
): { list: unknown[]; at: number } | undefined {
  const match = /^(.+)\.(\d+)$/.exec(field);
  const list = match ? outputs[match[1] as string] : undefined;
  return match && Array.isArray(list) ? { list, at: Number(match[2]) } : undefined;
}
