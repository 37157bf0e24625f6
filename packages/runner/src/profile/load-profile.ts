import type { LoadedProfile, ProfileSource } from "./loaded-profile.js";

export { type LoadedProfile, MAX_PROFILE_BYTES, type ProfileSource } from "./loaded-profile.js";

/**
 * Reads a provider profile (`reelsmith.config.yaml`), validates it with core's
 * `validateProfile`, and returns it with its video catalog, chat models, unknown fields and
 * positions (diagnostics name the file as `options.displayPath`, else as given). Throws
 * {@link ProfileError} with every problem at `file:line:column` (an
 * unreadable file, a YAML syntax error, a key written in the file, an unknown dialect or
 * field, …); quoted lines never show a secret's value.
 *
 * @example
 * ```ts
 * const { catalog, profile } = await loadProfile("reelsmith.config.yaml");
 * const result = await validatePipeline("pipeline.yaml", { catalogs: { video_models: catalog } });
 * ```
 */
export async function loadProfile(
  input: ProfileSource,
  options: { displayPath?: string } = {},
): Promise<LoadedProfile> {
  // Loaded on use: YAML, source maps and core's checks, which finding a profile never needs.
  return (await import("./read-profile.js")).readProfile(input, options);
}
