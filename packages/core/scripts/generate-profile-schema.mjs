// Writes schema/profile.schema.json from the built profile schema (run after `tsc -b`).
// The file is only rewritten when its content changes, so the committed (formatted) file
// stays untouched by ordinary builds; run `npx biome format --write` on it after a change.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { profileJsonSchema } from "../dist/profile/profile-schema.js";

const target = fileURLToPath(new URL("../schema/profile.schema.json", import.meta.url));
const schema = JSON.parse(JSON.stringify(profileJsonSchema));
let current;
try {
  current = JSON.parse(readFileSync(target, "utf8"));
} catch {
  current = undefined;
}
if (!isDeepStrictEqual(current, schema))
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
