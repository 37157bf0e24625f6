import type { CacheListing } from "@reelsmith/runner/cache";
import type { CliContext } from "../context.js";
import { formatBytes, formatTable } from "./format.js";

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Prints cache entries as `cache ls` does, whichever index holds them; `shown` names where.
 * @example writeCacheListing(listCache(), ".reelsmith/cache", context);
 */
export function writeCacheListing(
  entries: readonly CacheListing[],
  shown: string,
  context: CliContext,
): void {
  if (entries.length === 0) {
    context.stdout.write(`cache ${shown} is empty\n`);
    return;
  }
  const rows = [["key", "kind", "step", "size", "created", "request"]];
  for (const entry of entries) {
    rows.push([
      entry.key.slice(0, 12),
      entry.kind,
      entry.step,
      formatBytes(entry.bytes),
      entry.createdAt.replace(/\.\d+Z$/, "Z"),
      shorten(entry.summary ?? "", 50),
    ]);
  }
  const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  context.stdout.write(
    `${formatTable(rows, { rightAlign: [3] })}\n${entries.length} entries, ${formatBytes(total)} in ${shown}\n`,
  );
}
