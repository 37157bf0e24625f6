import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The name of a provider profile found by walking up from the working directory. */
export const PROFILE_FILE_NAME = "reelsmith.config.yaml";

/** A profile file to load, and how it was chosen (for messages). */
export interface FoundProfile {
  /** Absolute path (not checked to exist when named explicitly: loading says so). */
  path: string;
  /** `--config`, the `REELSMITH_CONFIG` variable, or found in `cwd` or a parent. */
  from: "config" | "REELSMITH_CONFIG" | "search";
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Which provider profile applies: `config` (the `--config FILE` flag) first, else the
 * `REELSMITH_CONFIG` variable, else `reelsmith.config.yaml` in `cwd` or its nearest parent
 * (up to the filesystem root). Relative paths are taken from `cwd`. Undefined when there is
 * none.
 *
 * @example
 * ```ts
 * findProfile({ cwd: process.cwd(), config: flags.config, env: process.env });
 * // { path: "/work/project/reelsmith.config.yaml", from: "search" }
 * ```
 */
export function findProfile(options: {
  cwd: string;
  config?: string | undefined;
  env?: Record<string, string | undefined>;
}): FoundProfile | undefined {
  if (options.config) return { path: resolve(options.cwd, options.config), from: "config" };
  const variable = options.env?.REELSMITH_CONFIG;
  if (variable) return { path: resolve(options.cwd, variable), from: "REELSMITH_CONFIG" };
  let directory = resolve(options.cwd);
  for (;;) {
    const candidate = join(directory, PROFILE_FILE_NAME);
    if (isFile(candidate)) return { path: candidate, from: "search" };
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
