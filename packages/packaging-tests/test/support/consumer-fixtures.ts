import { copyFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Copies a folder of `test/__fixtures__/` (flat) into a project directory.
 *
 * @example
 * await copyFixtures("core-consumer", project.dir); // scenario.cjs, use-core.mjs, use-core.cjs
 */
export async function copyFixtures(name: string, destination: string): Promise<void> {
  const source = fileURLToPath(new URL(`../__fixtures__/${name}/`, import.meta.url));
  for (const file of await readdir(source)) {
    await copyFile(path.join(source, file), path.join(destination, file));
  }
}

/**
 * The JSON object a fixture program prints as its last line of output.
 *
 * @example
 * lastJsonLine('notice\n{"ok":true}\n'); // { ok: true }
 */
export function lastJsonLine<T>(stdout: string): T {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as T;
}
