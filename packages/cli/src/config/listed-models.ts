import {
  dialectOfModelList,
  type ListedDialect,
  type Modality,
  type Model,
  modalities,
  modelKind,
  type VideoModelSpec,
} from "@reelsmith/core/catalog";
import { validateProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";

/** The fields of a profile's video model, in the order a profile writes them. */
export const videoFields = ["seconds", "sizes", "image", "params", "price"] as const;

/** A service's model list sorted by what each entry says it is, and what its shape says. */
export interface ListedModels {
  /** Ids listed as chat models (typed, or with chat fields). */
  chat: string[];
  /** Models listed as video models, with their metadata (a profile's video model shape). */
  video: { id: string; video?: unknown }[];
  /** Ids listed with no type: chat or video, nobody can tell. */
  kindUnknown: string[];
  /** Ids listed as each modality's models (by their `type`, or their fields for chat and video). */
  byModality: Record<Modality, string[]>;
  /** The dialect the list shows (reference, with or without evidence), and why. */
  dialect: ListedDialect;
}

/**
 * Sort `GET /v1/models` by kind: `models` shows, and `models --write-config` writes, the same.
 *
 * @example
 * sortListedModels([{ id: "veo-3-fast", object: "model", created: 1, owned_by: "acme" }]).kindUnknown; // ["veo-3-fast"]
 */
export function sortListedModels(models: readonly Model[]): ListedModels {
  return {
    chat: models.filter((model) => modelKind(model) === "chat").map((model) => model.id),
    video: models
      .filter((model) => modelKind(model) === "video")
      .map((model) => ({ id: model.id, video: model.video })),
    kindUnknown: models.filter((model) => modelKind(model) === "unknown").map((model) => model.id),
    byModality: Object.fromEntries(
      modalities.map((modality) => [
        modality,
        models.filter((model) => modelKind(model) === modality).map((model) => model.id),
      ]),
    ) as Record<Modality, string[]>,
    dialect: dialectOfModelList(models),
  };
}

/**
 * A listed model's metadata, field by field, where it reads as a profile's video model (a
 * field the profile's schema would refuse is left out, as unknown).
 *
 * @example
 * knownVideoFields("veo-3", { seconds: [4, 8], price: { per_second: 2 }, sizes: "big" }); // { seconds: [4, 8], price: { per_second: 2 } }
 */
export function knownVideoFields(id: string, video: unknown): Record<string, unknown> {
  if (!video || typeof video !== "object" || Array.isArray(video)) return {};
  const fields: Record<string, unknown> = {};
  for (const field of videoFields) {
    const value = (video as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    if (validateProfile({ video_models: { [id]: { [field]: value } } }).length === 0)
      fields[field] = value;
  }
  return fields;
}

/**
 * A listed video model as a spec (limits and price), read as a profile would read the same
 * fields: what `models` shows is what `--write-config` writes.
 *
 * @example
 * listedVideoSpec({ id: "veo-3", video: { price: { per_clip: 9 } } }).price; // { perClip: 9 }
 */
export function listedVideoSpec(model: { id: string; video?: unknown }): VideoModelSpec {
  const [spec] = videoCatalogFromProfile({
    video_models: { [model.id]: knownVideoFields(model.id, model.video) },
  });
  return spec ?? { id: model.id };
}
