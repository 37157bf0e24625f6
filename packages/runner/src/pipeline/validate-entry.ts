// `@reelsmith/runner/validate`: validating and loading pipelines, without the schema builders.
// This entry point imports only what validation runs, so a process that just validates (the
// CLI's `validate`) starts without loading TypeBox or ajv's compiler. Keep TypeBox values
// (schemas, definitions, `createPipelineSchema`) out of this file's import graph.
export { type Diagnostic, formatDiagnostic, sortDiagnostics } from "./diagnostic.js";
export * from "./errors/index.js";
export {
  type LoadedPipeline,
  MAX_PIPELINE_BYTES,
  objectSource,
  type PipelineSource,
  pipelineObjectToSource,
} from "./load-pipeline.js";
export { resolveInputs } from "./resolve-inputs.js";
export { loadPipeline, type ValidateOptions, validatePipeline } from "./validate-pipeline.js";
