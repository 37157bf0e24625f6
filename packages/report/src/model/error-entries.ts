import type { SerializedError } from "@reelsmith/runner";
import type { ErrorEntry } from "./report-model.js";

/**
 * An error of a step or item as the page lists it: where it was written (its own position,
 * else its step's in the pipeline).
 * @example errorEntry("clips", 1, error, "pipeline.yaml:12:5")
 */
export function errorEntry(
  step: string,
  index: number | undefined,
  error: SerializedError,
  location: string | undefined,
): ErrorEntry {
  const own =
    typeof error.file === "string" && typeof error.line === "number"
      ? `${error.file}:${error.line}:${typeof error.column === "number" ? error.column : 1}`
      : undefined;
  return {
    step,
    ...(index === undefined ? {} : { index }),
    name: error.name,
    ...(error.code ? { code: error.code } : {}),
    message: error.message,
    ...((own ?? location) ? { location: own ?? location } : {}),
  };
}

/**
 * The run's own error (run.json's), when no step's error says why it ended.
 * @example const entry = runErrorEntry(runJson.error);
 */
export function runErrorEntry(error: Record<string, unknown>): ErrorEntry {
  return {
    step: "run",
    name: String(error.name ?? "Error"),
    ...(error.code ? { code: String(error.code) } : {}),
    message: String(error.message ?? ""),
  };
}
