// Writes schema/profile.schema.json from the built profile schema (run after `tsc -b`).
import { writeFileSync } from "node:fs";
import { profileJsonSchema } from "../dist/profile/profile-schema.js";

writeFileSync(
  new URL("../schema/profile.schema.json", import.meta.url),
  `${JSON.stringify(profileJsonSchema, null, 2)}\n`,
);
