import { statSync } from "node:fs";
import path from "node:path";

/** A pipeline output that is a file of the run. */
export interface FileOutput {
  name: string;
  /** Absolute path. */
  file: string;
  bytes: number;
}

/** The outputs of a run, split into files (that exist) and the rest. */
export interface RunOutputs {
  files: FileOutput[];
  values: { name: string; value: unknown }[];
}

const VIDEO = /\.(mp4|mov|m4v|webm|mkv)$/i;

function existingFile(candidate: string, runDir: string | undefined): FileOutput | undefined {
  const file = path.isAbsolute(candidate)
    ? candidate
    : runDir
      ? path.resolve(runDir, candidate)
      : "";
  if (!file) return undefined;
  try {
    const info = statSync(file);
    return info.isFile() ? { name: "", file, bytes: info.size } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Split a run's outputs: a string (or `{ file }`) that names an existing file — absolute, or
 * relative to the run directory — is a file output; anything else is a value.
 *
 * @example
 * splitOutputs({ video: "/w/runs/x/final.mp4", title: "Paper boat" }, "/w/runs/x");
 */
export function splitOutputs(
  outputs: Record<string, unknown>,
  runDir: string | undefined,
): RunOutputs {
  const result: RunOutputs = { files: [], values: [] };
  for (const [name, value] of Object.entries(outputs)) {
    const candidate =
      typeof value === "string"
        ? value
        : value &&
            typeof value === "object" &&
            typeof (value as { file?: unknown }).file === "string"
          ? (value as { file: string }).file
          : undefined;
    const found =
      candidate && candidate.length < 4096 && !candidate.includes("\n")
        ? existingFile(candidate, runDir)
        : undefined;
    if (found) result.files.push({ ...found, name });
    else result.values.push({ name, value });
  }
  return result;
}

/**
 * The run's video: the `video` output when it is a file, else the first video file output.
 *
 * @example
 * videoOutput(splitOutputs(outputs, runDir))?.file; // "/w/runs/x/final.mp4"
 */
export function videoOutput(outputs: RunOutputs): FileOutput | undefined {
  return (
    outputs.files.find((entry) => entry.name === "video") ??
    outputs.files.find((entry) => VIDEO.test(entry.file))
  );
}
