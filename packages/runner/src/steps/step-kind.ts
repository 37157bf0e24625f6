/**
 * The one interface every step kind implements (chat, video, ffmpeg, and more later).
 *
 * The pipeline side (schema + static checks) lives in `StepKindDefinition`; the execution
 * side adds `run` in `StepKind`.
 *
 * @example
 * ```ts
 * const myKind: StepKindDefinition = { kind: "echo", schema: Type.Object({ text: Type.String() }) };
 * ```
 */
import type { TSchema } from "@sinclair/typebox";
import type { DistributiveOmit, RunEvent } from "../events/index.js";
import type { StepJournal } from "../journal/index.js";
import type { ReelsmithClient, VideoModelCatalog } from "../pipeline/core-shim.js";

/** What a kind's static `check` receives: a way to report problems at a path inside the step body. */
export interface CheckContext {
  /** Report a problem at a path inside this step's body, e.g. ["seconds"] or ["tools", 0, "name"]. */
  report(
    path: readonly (string | number)[],
    message: string,
    options?: { severity?: "error" | "warning"; hint?: string; code?: string },
  ): void;
  /** True when a value contains no `${{ }}` expression (so it is known before the run). */
  isLiteral(value: unknown): boolean;
  /** The video models whose limits are known (a profile, the service's list); none: unchecked. */
  videoModels: VideoModelCatalog | undefined;
  defaults: Record<string, Record<string, unknown>>; // pipeline `defaults` per kind
}

/** The pipeline-facing half of a step kind: its YAML key, its body schema and its static checks. */
export interface StepKindDefinition<Spec = Record<string, unknown>> {
  /** The YAML key that selects the kind: "chat", "video", "ffmpeg". */
  kind: string;
  /** TypeBox schema of the kind's body (the value under the key). */
  schema: TSchema;
  /** Static checks beyond the schema (model limits, stop count, tool_choice, output paths). */
  check?(spec: Spec, context: CheckContext): void;
}

/** What a kind's `run` receives from the executor. */
export interface StepRunContext {
  stepId: string;
  index?: number;
  runDir: string;
  signal: AbortSignal;
  client: ReelsmithClient;
  emit(event: DistributiveOmit<RunEvent, "seq" | "time">): void;
  /** Resolve a path the pipeline names inside the run directory (refuses escapes). */
  resolveOutputPath(relative: string): string;
  journal: StepJournal; // execution owner defines: record(jobId) before polling, etc.
  /** Runs work once a video slot is free; waiting for it holds no other slot. */
  limits: { video: import("../executor/slot-pool.js").LimitRunner };
  defaults: Record<string, unknown>; // this kind's pipeline defaults (already merged into spec by the executor)
}

/** A complete step kind: definition plus the function that runs one step (or one fan-out item). */
/** How results of a kind are cached (a kind without one is never cached). */
export interface StepCachePolicy<Spec = Record<string, unknown>> {
  /** Fields left out of the cache key: they change where a result goes, not what is asked. */
  ignore?: readonly string[];
  /** Where a cached run puts each file output, relative to the run directory. */
  placeFiles?(spec: Spec, at: { stepId: string; index?: number }): Record<string, string>;
}

export interface StepKind<Spec = Record<string, unknown>> extends StepKindDefinition<Spec> {
  /** Run one step (or one fan-out item) whose expressions are already evaluated. Returns its outputs. */
  run(spec: Spec, context: StepRunContext): Promise<Record<string, unknown>>;
  /** Results of identical requests are reused from the cache when this is set. */
  cache?: StepCachePolicy<Spec>;
}
