// The pipeline side: load, validate (with every problem at file:line:column) and the schema.
export type { VideoModelCatalog, VideoModelSpec } from "./core-shim.js";
export { type Diagnostic, formatDiagnostic, sortDiagnostics } from "./diagnostic.js";
export * from "./errors/index.js";
export { PIPELINE_SCHEMA_ID, pipelineJsonSchema } from "./json-schema.js";
export {
  type LoadedPipeline,
  MAX_PIPELINE_BYTES,
  objectSource,
  type PipelineSource,
  pipelineObjectToSource,
} from "./load-pipeline.js";
export { createPipelineSchema, InputSchema, inputTypes } from "./pipeline-schema.js";
export type { InputSpec, PipelineSpec, StepSpec } from "./pipeline-spec.js";
export { resolveInputs } from "./resolve-inputs.js";
export {
  MAX_SUB_PIPELINE_DEPTH,
  type SubPipelineReference,
  subPipelineReferences,
} from "./sub-pipelines.js";
export { loadPipeline, type ValidateOptions, validatePipeline } from "./validate-pipeline.js";
