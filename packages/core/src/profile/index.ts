export type { SpeechModelSpec } from "../audio/speech-model-spec.js";
export type { TranscriptionModelSpec } from "../audio/transcription-model-spec.js";
export type { ImageModelSpec } from "../images/image-model-spec.js";
export { chargeInUnit, exactAmount } from "../prices/charge-in-unit.js";
export {
  clientOptionsFromProfile,
  type ProfileClientOptions,
} from "./client-options-from-profile.js";
export {
  type ListedModel,
  type ListedModels,
  listedModels,
  mediaModelsListed,
  videoModelsListed,
} from "./listed-models.js";
export {
  estimateImageCredits,
  estimateSpeechCredits,
  estimateTranscriptionCredits,
  imageModelsFromProfile,
  speechModelsFromProfile,
  transcriptionModelsFromProfile,
} from "./media-catalog-from-profile.js";
export {
  modelCatalogsFromProfile,
  modelsFromProfile,
  type ProfileModelCatalogs,
} from "./models-from-profile.js";
export { parseDuration } from "./parse-duration.js";
export { parseProfile } from "./parse-profile.js";
export { priceUnitsSection } from "./price-units-section.js";
export { profileJsonSchema, profileSchemaId, speechFormats } from "./profile-schema.js";
export type {
  ProfileChatModel,
  ProfileImageModel,
  ProfileParam,
  ProfileProvider,
  ProfileSpeechModel,
  ProfileTranscriptionModel,
  ProfileVideoModel,
  ProviderProfile,
} from "./profile-types.js";
export { type PriceUnit, priceUnits } from "./profile-types.js";
export { type ProfileUnknown, profileUnknowns } from "./profile-unknowns.js";
export {
  type ModelPriceUnit,
  modelPriceUnits,
  modelProviders,
  type ProviderAccount,
  providerAccounts,
} from "./provider-accounts.js";
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
