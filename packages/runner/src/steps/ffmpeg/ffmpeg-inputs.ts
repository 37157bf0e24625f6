import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { RunnerError } from "../../errors/runner-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import type { StepRunContext } from "../step-kind.js";

/**
 * Drops undefined fields (media's options are exact).
 * @example defined({ size: undefined, fps: 24 }) // { fps: 24 }
 */
export function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A number from a literal or an expression's value; undefined stays undefined.
 * @example numberOf("2.5") // 2.5
 */
export function numberOf(value: unknown): number | undefined {
  return value === undefined || value === null || value === "" ? undefined : Number(value);
}

/**
 * Input files: absolute as given; relative ones inside the run directory, else beside the pipeline.
 * @example inputPath("clips/scene-0.mp4", context) // <runDir>/clips/scene-0.mp4
 */
export function inputPath(value: unknown, context: StepRunContext): string {
  const path = String(value);
  if (isAbsolute(path)) return path;
  const inRun = join(context.runDir, path);
  if (existsSync(inRun)) return inRun;
  return resolve(executionExtras(context)?.pipelineDir ?? process.cwd(), path);
}

/**
 * `frame`'s `at`: first, last (the default) or seconds.
 * @example frameAt("first") // "first"
 */
export function frameAt(value: unknown): "first" | "last" | number {
  if (value === undefined || value === null || value === "" || value === "last") return "last";
  if (value === "first") return "first";
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new RunnerError(
      "ffmpeg_frame_at",
      `ffmpeg frame \`at\` must be first, last or seconds from 0; got ${JSON.stringify(value)}`,
    );
  return seconds;
}

/**
 * An operation's input files (one or a list), resolved as {@link inputPath}; none is an error.
 * @example inputList(["a.mp4", "b.mp4"], context, "concat")
 */
export function inputList(value: unknown, context: StepRunContext, operation: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  const files = list.filter((v) => v !== null && v !== undefined && v !== "");
  if (files.length === 0)
    throw new RunnerError("ffmpeg_no_inputs", `ffmpeg ${operation} got no input files`);
  return files.map((f) => inputPath(f, context));
}

/**
 * `fit`'s mode when fitting to seconds: auto, trim or hold (a size's contain/cover, from defaults, is ignored).
 * @example lengthMode("cover") // undefined
 */
export function lengthMode(mode: unknown): "auto" | "trim" | "hold" | undefined {
  return mode === "auto" || mode === "trim" || mode === "hold" ? mode : undefined;
}
