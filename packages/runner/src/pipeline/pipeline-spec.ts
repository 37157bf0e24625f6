/** One declared input of a pipeline. */
export interface InputSpec {
  type: "string" | "number" | "integer" | "boolean" | "array" | "object" | "file";
  description?: string;
  default?: unknown;
  required?: boolean;
  /** number and integer inputs: the smallest and largest values accepted. */
  minimum?: number;
  maximum?: number;
}

/** One step: the common fields, and one kind key holding the kind's body. */
export interface StepSpec {
  id: string;
  name?: string;
  needs?: string[];
  if?: string;
  for_each?: unknown[] | string;
  max_parallel?: number;
  /** Run the items one after another; each reads the one before as `previous`. */
  sequential?: boolean;
  retry?: { attempts: number; backoff_ms?: number; factor?: number };
  timeout?: string | number;
  continue_on_error?: boolean;
  cache?: boolean;
  /** The kind's body, under the kind's key (`chat:`, `video:`, …). */
  [kind: string]: unknown;
}

/**
 * A validated pipeline file (its schema: `createPipelineSchema`, published as
 * `schema/pipeline.schema.json`).
 *
 * @example
 * ```ts
 * const spec: PipelineSpec = { name: "hello", steps: [{ id: "a", chat: { prompt: "hi" } }] };
 * ```
 */
export interface PipelineSpec {
  $schema?: string;
  name: string;
  description?: string;
  inputs?: Record<string, InputSpec>;
  env?: Record<string, string | number | boolean>;
  /** Pipeline-wide values per kind, merged under each step's own. */
  defaults?: Record<string, Record<string, unknown>>;
  max_credits?: number;
  steps: StepSpec[];
  outputs?: Record<string, unknown>;
}
