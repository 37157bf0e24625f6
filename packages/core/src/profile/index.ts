export {
  clientOptionsFromProfile,
  type ProfileClientOptions,
} from "./client-options-from-profile.js";
export { parseDuration } from "./parse-duration.js";
export { parseProfile } from "./parse-profile.js";
export { profileJsonSchema, profileSchemaId } from "./profile-schema.js";
export type {
  ProfileChatModel,
  ProfileParam,
  ProfileVideoModel,
  ProviderProfile,
} from "./profile-types.js";
export { type ProfileUnknown, profileUnknowns } from "./profile-unknowns.js";
export {
  findSecretKeys,
  findSecretValues,
  looksLikeSecretKey,
  looksLikeSecretValue,
  maskSecretValues,
} from "./secret-keys.js";
export { type ProfileProblem, validateProfile } from "./validate-profile.js";
export {
  type ChatModelSpec,
  chatModelsFromProfile,
  paramSpec,
  videoCatalogFromProfile,
} from "./video-catalog-from-profile.js";
