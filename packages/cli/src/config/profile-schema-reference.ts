import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const installed = path.join("node_modules", "@reelsmith", "core", "schema", "profile.schema.json");

/**
 * How a profile written in `directory` names its JSON Schema for editors
 * (`# yaml-language-server: $schema=…`): the schema of `@reelsmith/core` installed in that
 * directory or a parent (`./node_modules/…`), else the one this CLI uses, relative to it.
 *
 * @example
 * profileSchemaReference("/work/project"); // "./node_modules/@reelsmith/core/schema/profile.schema.json"
 */
export function profileSchemaReference(directory: string): string {
  let current = path.resolve(directory);
  for (;;) {
    const candidate = path.join(current, installed);
    if (existsSync(candidate)) return relative(directory, candidate);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  const own = createRequire(import.meta.url).resolve("@reelsmith/core/profile.schema.json");
  return relative(directory, own);
}

function relative(directory: string, file: string): string {
  const text = path.relative(path.resolve(directory), file).split(path.sep).join("/");
  return text.startsWith(".") ? text : `./${text}`;
}
