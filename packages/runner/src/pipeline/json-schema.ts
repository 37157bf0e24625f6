import { PipelineSchema } from "./pipeline-schema.js";

/** Where editors find the published schema inside the package. */
export const PIPELINE_SCHEMA_ID = "https://reelsmith.dev/schema/pipeline.schema.json";

/**
 * The pipeline JSON Schema as plain JSON (what `schema/pipeline.schema.json` holds).
 * Editors use it through `# yaml-language-server: $schema=…`.
 *
 * @example
 * ```ts
 * writeFileSync("pipeline.schema.json", JSON.stringify(pipelineJsonSchema(), null, 2));
 * ```
 */
export function pipelineJsonSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(PipelineSchema)) as Record<string, unknown>;
  return { $schema: "http://json-schema.org/draft-07/schema#", $id: PIPELINE_SCHEMA_ID, ...plain };
}
