import type { RetrySpec } from "./retry-policy.js";

/** One step as the executor reads it (the pipeline's validated StepSpec fits this shape). */
export interface ExecutableStep {
  id: string;
  name?: string;
  needs?: string[];
  if?: string;
  for_each?: unknown;
  max_parallel?: number;
  sequential?: boolean;
  retry?: RetrySpec;
  timeout?: string | number;
  continue_on_error?: boolean;
  cache?: boolean;
  [kind: string]: unknown;
}

/** The pipeline as the executor reads it (the loaded pipeline's `spec` fits this shape). */
export interface ExecutableSpec {
  name: string;
  steps: ExecutableStep[];
  env?: Record<string, string>;
  defaults?: Record<string, Record<string, unknown>>;
  outputs?: Record<string, unknown>;
  max_credits?: number;
}

/** The dependency graph of a pipeline: step id → ids it waits for. */
export interface StepGraph {
  order: string[];
  dependencies: Map<string, Set<string>>;
}
