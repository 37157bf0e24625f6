import { InvalidProfileError } from "../errors/invalid-profile-error.js";
import type { ProviderProfile } from "./profile-types.js";
import { validateProfile } from "./validate-profile.js";

/**
 * Validates a parsed profile and returns it typed; throws `InvalidProfileError` listing every
 * problem otherwise.
 *
 * @example
 * ```ts
 * const profile = parseProfile(YAML.parse(await readFile("reelsmith.config.yaml", "utf8")));
 * ```
 */
export function parseProfile(value: unknown): ProviderProfile {
  const problems = validateProfile(value);
  if (problems.length > 0) throw new InvalidProfileError(problems);
  return value as ProviderProfile;
}
