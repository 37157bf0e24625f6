/**
 * @reelsmith/core/catalog: video model specs and the local request checks (video, chat, base
 * URL, a job's normalised form), without the HTTP client. For code that only validates (a pipeline checker, a CLI's `validate`) and should not
 * load undici.
 *
 * @example
 * ```ts
 * import { findVideoRequestProblems } from "@reelsmith/core/catalog";
 * findVideoRequestProblems({ model: "veo-3-fast", prompt: "a fox", seconds: 12 }, catalog);
 * ```
 */

export { validateChatParams } from "./chat/validate-chat-params.js";
export { baseURLProblem, maskURLCredentials } from "./client/base-url.js";
export { normalizeBaseURL } from "./client/config.js";
export { InvalidRequestError, type RequestProblem } from "./errors/invalid-request-error.js";
export {
  type Modality,
  type ModalitySection,
  modalities,
  modalityDeclarations,
  modalityOfTypeWord,
  modalitySection,
  modalitySections,
} from "./models/modalities.js";
export {
  dialectOfModelList,
  type ListedDialect,
  type ModelKind,
  modelKind,
} from "./models/model-kind.js";
export type { Model } from "./models/types.js";
export { chargeInUnit, exactAmount } from "./prices/charge-in-unit.js";
export { priceUnitsSection } from "./profile/price-units-section.js";
export { providerAccounts } from "./profile/provider-accounts.js";
export {
  looksLikeSecretKey,
  looksLikeSecretValue,
  maskSecretValues,
} from "./profile/secret-keys.js";
export {
  describeProviders,
  isProviderName,
  type ProviderModality,
  type ProviderName,
  providerAccess,
  providerModalities,
  providerNames,
  videoProvider,
} from "./providers/registry.js";
export { acceptedAspectRatio } from "./providers/request-checks.js";
export { estimateVideoCredits } from "./videos/estimate-video-credits.js";
export { normalizeVideoJob } from "./videos/normalize-job.js";
export type {
  ImageInput,
  ParamSpec,
  ParamType,
  SecondsSpec,
  SizesSpec,
  VideoCreateParams,
  VideoModelCatalog,
  VideoModelLimits,
  VideoModelSpec,
  VideoParamValue,
  VideoPrice,
} from "./videos/types.js";
export { validateVideoRequest } from "./videos/validate-video-request.js";
export type { VideoDialect } from "./videos/video-dialect.js";
export {
  describeSeconds,
  describeSizes,
  longestSeconds,
  secondsAllowed,
  sizeAllowed,
} from "./videos/video-model-spec.js";
export {
  findVideoRequestProblems,
  type VideoRequestProblem,
} from "./videos/video-request-problems.js";
