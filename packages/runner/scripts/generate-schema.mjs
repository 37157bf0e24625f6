// Writes schema/pipeline.schema.json from the TypeBox source (run after `tsc -b`).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pipelineJsonSchema } from "../dist/pipeline/json-schema.js";

const target = fileURLToPath(new URL("../schema/pipeline.schema.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(pipelineJsonSchema(), null, 2)}\n`);
