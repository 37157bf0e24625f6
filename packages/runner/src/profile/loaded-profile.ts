import type {
  ChatModelSpec,
  ProfileClientOptions,
  ProfileUnknown,
  ProviderProfile,
} from "@reelsmith/core/profile";
import type { VideoModelCatalog } from "../pipeline/core-shim.js";

/** Largest profile file accepted (bytes). */
export const MAX_PROFILE_BYTES = 1024 * 1024;

/**
 * A provider profile read from YAML and validated, with what the checks and the client need.
 *
 * @example
 * ```ts
 * const loaded = await loadProfile("reelsmith.config.yaml");
 * loaded.catalog.map((model) => model.id); // ["veo-3-fast"]
 * loaded.positionOf("/video_models/veo-3-fast"); // { line: 9, column: 3 }
 * ```
 */
export interface LoadedProfile {
  /** The validated profile, as written (snake_case). */
  profile: ProviderProfile;
  /** Absolute path of the file, or the name given with inline text. */
  path: string;
  /** The file as the caller named it (used in diagnostics). */
  displayPath: string;
  /** The YAML text. */
  source: string;
  /** Its video models with their limits, parameters and prices (core's catalog). */
  catalog: VideoModelCatalog;
  /** Its chat models with their capabilities. */
  chatModels: ChatModelSpec[];
  /** Fields left missing or null: not checked locally. */
  unknowns: ProfileUnknown[];
  /** What it sets of `createClient()`'s options (core's `clientOptionsFromProfile`); never the key. */
  clientOptions: ProfileClientOptions;
  /**
   * 1-based position of the value at a JSON pointer (or a path) in the file; with `key`, of
   * the key naming it. A missing field resolves to its nearest ancestor.
   */
  positionOf(
    at: string | readonly (string | number)[],
    options?: { key?: boolean },
  ): { line: number; column: number };
  /** Text of a 1-based line, with the values of secret-looking keys masked. */
  lineText(line: number): string;
}

/** What `loadProfile` accepts: a file path, or YAML text with the name to show for it. */
export type ProfileSource = string | { source: string; path: string };
