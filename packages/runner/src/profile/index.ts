/**
 * Provider profiles as files: find one (`--config`, `REELSMITH_CONFIG`, or
 * `reelsmith.config.yaml` up from the working directory), load and validate it with
 * positions, warn about what it leaves unknown, and resolve the service it describes. Finding
 * a profile loads no schema validator; loading one does.
 *
 * @example
 * ```ts
 * import { findProfile, loadProfile, serviceFromProfile } from "@reelsmith/runner/profile";
 * const found = findProfile({ cwd: process.cwd(), env: process.env });
 * const loaded = found && (await loadProfile(found.path));
 * ```
 */
export { type Diagnostic, formatDiagnostic } from "../pipeline/diagnostic.js";
export { type FoundProfile, findProfile, PROFILE_FILE_NAME } from "./find-profile.js";
export {
  type LoadedProfile,
  loadProfile,
  MAX_PROFILE_BYTES,
  type ProfileSource,
} from "./load-profile.js";
export { ProfileError } from "./profile-error.js";
export { profileWarnings } from "./profile-warnings.js";
export {
  type ProfileAccountService,
  type ProfileService,
  serviceFromProfile,
} from "./service-from-profile.js";
