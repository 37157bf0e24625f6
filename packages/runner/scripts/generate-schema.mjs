// Writes schema/pipeline.schema.json from the TypeBox source (run after `tsc -b`).
// The file is only rewritten when its content changes, so the committed (formatted) file
// stays untouched by ordinary builds; run `npx biome format --write` on it after a change.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { pipelineJsonSchema } from "../dist/pipeline/json-schema.js";

const target = fileURLToPath(new URL("../schema/pipeline.schema.json", import.meta.url));
const schema = await pipelineJsonSchema();
let current;
try {
  current = JSON.parse(readFileSync(target, "utf8"));
} catch {
  current = undefined;
}
if (!isDeepStrictEqual(current, schema))
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
