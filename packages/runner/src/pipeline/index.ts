export {
  referenceVideoModels,
  type VideoModelCatalog,
  type VideoModelLimits,
} from "./core-shim.js";
export { type Diagnostic, formatDiagnostic, sortDiagnostics } from "./diagnostic.js";
export * from "./errors/index.js";
export { PIPELINE_SCHEMA_ID, pipelineJsonSchema } from "./json-schema.js";
export {
  type LoadedPipeline,
  MAX_PIPELINE_BYTES,
  type PipelineSource,
  pipelineObjectToSource,
} from "./load-pipeline.js";
export { outputPathProblem } from "./output-path.js";
export {
  DefaultsSchema,
  InputSchema,
  type InputSpec,
  inputTypes,
  PipelineSchema,
  type PipelineSpec,
  StepSchema,
  type StepSpec,
} from "./pipeline-schema.js";
export { resolveInputs } from "./resolve-inputs.js";
export { stepKindOf } from "./step-kind-of.js";
export { loadPipeline, type ValidateOptions, validatePipeline } from "./validate-pipeline.js";
