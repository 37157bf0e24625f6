import {
  type Modality,
  type ModalitySection,
  modalities,
  modalitySection,
} from "../models/modalities.js";
import {
  imageModelsFromProfile,
  speechModelsFromProfile,
  transcriptionModelsFromProfile,
} from "./media-catalog-from-profile.js";
import type { ProviderProfile } from "./profile-types.js";
import { chatModelsFromProfile, videoCatalogFromProfile } from "./video-catalog-from-profile.js";

/**
 * How a (validated) profile's section of each modality is read as core's specs: one reader
 * per modality, so a modality without one is a type error.
 * @example modelsFromProfile.speech({ speech_models: { "tts-1": null } }); // [{ id: "tts-1" }]
 */
export const modelsFromProfile = {
  chat: chatModelsFromProfile,
  video: videoCatalogFromProfile,
  image: imageModelsFromProfile,
  speech: speechModelsFromProfile,
  transcription: transcriptionModelsFromProfile,
} as const satisfies Record<Modality, (profile: ProviderProfile) => readonly { id: string }[]>;

/** A profile's model catalogs by section, each as its modality's reader gives it. */
export type ProfileModelCatalogs = {
  [M in Modality as ModalitySection<M>]?: ReturnType<(typeof modelsFromProfile)[M]>;
};

/**
 * The model catalogs a profile declares, by section (`chat_models`, `video_models`, …): every
 * modality whose section names at least one model. What a run is checked and priced against.
 * @example modelCatalogsFromProfile({ speech_models: { "tts-1": null } }); // { speech_models: [{ id: "tts-1" }] }
 */
export function modelCatalogsFromProfile(profile: ProviderProfile): ProfileModelCatalogs {
  const catalogs: Record<string, readonly { id: string }[]> = {};
  for (const modality of modalities) {
    const models = modelsFromProfile[modality](profile);
    if (models.length > 0) catalogs[modalitySection(modality)] = models;
  }
  return catalogs as ProfileModelCatalogs;
}
