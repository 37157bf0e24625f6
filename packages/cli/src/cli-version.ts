import { createRequire } from "node:module";

/**
 * The version of this package, read from its package.json (one folder up from `src/` and `dist/`).
 *
 * @example
 * cliVersion(); // "0.1.0"
 */
export function cliVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("../package.json") as { version: string }).version;
}
