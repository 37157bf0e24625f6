import { builtInStepKinds } from "../steps/registry.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import { createPipelineSchema } from "./pipeline-schema.js";

/** Identifier of the published schema (the file ships as `@reelsmith/runner/schema.json`). */
export const PIPELINE_SCHEMA_ID = "urn:reelsmith:pipeline-schema";

/**
 * The pipeline JSON Schema as plain JSON (what `schema/pipeline.schema.json` holds for the
 * built-in kinds). Editors use it through `# yaml-language-server: $schema=…`.
 *
 * @example
 * ```ts
 * writeFileSync("pipeline.schema.json", JSON.stringify(await pipelineJsonSchema(), null, 2));
 * ```
 */
export async function pipelineJsonSchema(
  kinds: readonly AnyStepKind[] = builtInStepKinds,
): Promise<Record<string, unknown>> {
  const plain = JSON.parse(JSON.stringify(await createPipelineSchema(kinds))) as Record<
    string,
    unknown
  >;
  return { $schema: "http://json-schema.org/draft-07/schema#", $id: PIPELINE_SCHEMA_ID, ...plain };
}
