export { ChatStepSchema, type ChatStepSpec, chatDefinition } from "../steps/chat/index.js";
export {
  definitionOf,
  stepDefinitions,
  stepKindNames,
  stepOutputNames,
} from "../steps/definitions.js";
export {
  type FfmpegOperation,
  FfmpegStepSchema,
  type FfmpegStepSpec,
  ffmpegDefinition,
  ffmpegOperationOf,
  ffmpegOperations,
} from "../steps/ffmpeg/index.js";
export type { CheckContext, StepKindDefinition } from "../steps/step-kind.js";
export { VideoStepSchema, type VideoStepSpec, videoDefinition } from "../steps/video/index.js";
export type { VideoModelCatalog, VideoModelSpec } from "./core-shim.js";
export { type AnyStepKindDefinition, createPipelineSchema } from "./custom-kinds-schema.js";
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
export {
  MAX_SUB_PIPELINE_DEPTH,
  type SubPipelineReference,
  subPipelineReferences,
} from "./sub-pipelines.js";
export { loadPipeline, type ValidateOptions, validatePipeline } from "./validate-pipeline.js";
