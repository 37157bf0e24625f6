import type { ModalitySection } from "@reelsmith/core/catalog";
import { chatModels } from "./chat-models.js";
import { mediaCatalogs } from "./media-models.js";
import { videoModels } from "./video-models.js";

/**
 * Every catalog of models the simulator serves without a profile, by the provider profile's
 * section name, one per modality core declares (a modality it lacks is a type error):
 * what a run on the simulator passes as its `catalogs`.
 * @example modelCatalogs.video_models[0]?.id // "reel-video-1"
 */
export const modelCatalogs = Object.freeze({
  chat_models: chatModels,
  video_models: videoModels,
  ...mediaCatalogs,
} satisfies Record<ModalitySection, readonly { id: string }[]>);
