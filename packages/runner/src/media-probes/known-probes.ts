import path from "node:path";
import type { KnownProbe, MediaInfo } from "@reelsmith/media";

/** The `probe` output of a step that wrote a media file: its media info and identity. */
export type ProbeOutput = MediaInfo & { size: number; mtimeMs: number };

/** The `probe` output of a known probe (what the step writes into its outputs). */
export function probeOutput(known: KnownProbe): ProbeOutput {
  // The two fields first: `{ ...info, size }` gets a hidden class per clip in Node 20's V8
  // (journal.ts), and Object.assign of some 24 fields a slow dictionary object.
  const output: ProbeOutput = { size: known.size, mtimeMs: known.mtimeMs, ...known.info };
  // An info that is itself a probe output (one read back from a step's outputs) says its own.
  output.size = known.size;
  output.mtimeMs = known.mtimeMs;
  return output;
}

/**
 * A step's `probe` output as the run's known probe of its file, sharing the output's object as
 * its media info (a `ProbeOutput` is a `MediaInfo` with two more fields): a run of thousands of
 * clips keeps one copy of each clip's probe, not one in its outputs and another here.
 */
export function knownFromOutput(file: string, probe: ProbeOutput): KnownProbe {
  return { file: path.resolve(file), size: probe.size, mtimeMs: probe.mtimeMs, info: probe };
}

function fromOutput(value: unknown): KnownProbe | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { file, probe } = value as { file?: unknown; probe?: unknown };
  if (typeof file !== "string" || !probe || typeof probe !== "object") return undefined;
  const { size, mtimeMs } = probe as Partial<ProbeOutput>;
  if (typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
  return knownFromOutput(file, probe as ProbeOutput);
}

/**
 * The probes a run already made, by absolute path: clips probed when downloaded, outputs
 * verified when written. Steps that read media files pass them to @reelsmith/media, which
 * trusts one only while the file keeps its size and modification time.
 */
export class KnownProbes {
  readonly #byFile = new Map<string, KnownProbe>();

  add(known: KnownProbe): void {
    const file = path.resolve(known.file);
    const kept = this.#byFile.get(file);
    // The same probe seen again (a step's outputs, after its unit added it): kept as it was.
    if (kept && kept.info === known.info) return;
    this.#byFile.set(file, known);
  }

  /** Keeps the probes found in a step's outputs (`{ file, probe }`, or a fan-out's list of them). */
  addFromOutputs(outputs: unknown): void {
    for (const value of Array.isArray(outputs) ? outputs : [outputs]) {
      const known = fromOutput(value);
      if (known) this.add(known);
    }
  }

  /** The probes of these files that are known. */
  for(files: readonly string[]): KnownProbe[] {
    const found: KnownProbe[] = [];
    for (const file of files) {
      const known = this.#byFile.get(path.resolve(file));
      if (known) found.push(known);
    }
    return found;
  }
}
