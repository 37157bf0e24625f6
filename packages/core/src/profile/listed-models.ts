import { modelKind } from "../models/model-kind.js";
import { validateProfile } from "./validate-profile.js";
import { videoCatalogFromProfile } from "./video-catalog-from-profile.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A model as a service's `GET /v1/models` lists it. */
export type ListedModel = { id: string; [key: string]: unknown };

/**
 * The video models a service lists with their limits (`type: "video"` entries whose `video`
 * metadata is written as a profile writes a video model); entries that do not read as one are
 * skipped.
 * @example videoModelsListed([{ id: "veo-3", type: "video", video: { seconds: [4, 8] } }]);
 */
export function videoModelsListed(models: readonly ListedModel[]) {
  const entries = models.filter(
    (model) =>
      model.type === "video" &&
      isObject(model.video) &&
      validateProfile({ video_models: { [model.id]: model.video } }).length === 0,
  );
  return videoCatalogFromProfile({
    video_models: Object.fromEntries(entries.map((model) => [model.id, model.video as object])),
  });
}

/** A service's model list read as a provider profile's sections. */
export interface ListedModels {
  /** Every id listed. */
  ids: readonly string[];
  /** The section a listed model's type names (`chat_models`, `video_models`); untyped: absent. */
  sectionOf: ReadonlyMap<string, string>;
  /**
   * Sections whose models carry limits a profile declares, with the listed models whose
   * metadata reads as a profile's: a model of such a section listed without them has its
   * limits and price unknown.
   */
  described: Readonly<Record<string, readonly { id: string }[]>>;
}

/**
 * Reads a service's model list as a provider profile's sections: each model under the section
 * its type names (`type: "video"` → `video_models`, chat → `chat_models`; core's `modelKind`),
 * the video ones with their limits where their metadata reads as a profile's video model.
 * @example listedModels([{ id: "reel-chat-1", type: "chat" }]).sectionOf.get("reel-chat-1") // "chat_models"
 */
export function listedModels(models: readonly ListedModel[]): ListedModels {
  const sectionOf = new Map<string, string>();
  for (const model of models) {
    const kind = modelKind(model);
    if (kind !== "unknown") sectionOf.set(model.id, `${kind}_models`);
  }
  return {
    ids: models.map((model) => model.id),
    sectionOf,
    described: { video_models: videoModelsListed(models) },
  };
}
