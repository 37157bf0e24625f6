import { type Modality, modalities, modalitySection } from "../models/modalities.js";
import { modelKind } from "../models/model-kind.js";
import { modelsFromProfile } from "./models-from-profile.js";
import { validateProfile } from "./validate-profile.js";
import { videoCatalogFromProfile } from "./video-catalog-from-profile.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A key as a JSON pointer writes it. */
const pointerKey = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

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

/**
 * The image, speech or transcription models a service lists with their limits (entries of
 * `kind` whose metadata under the kind's name reads as a profile's model of its section, e.g.
 * `{ type: "speech", speech: { voices, formats, price: { per_1000_characters } } }`), as the
 * profile reader gives them. A field a profile does not know (a service's own word, such as a
 * transcription model's `granularities`) is skipped; an entry with a known field of a wrong
 * value is skipped whole, as for video.
 * @example mediaModelsListed([{ id: "tts-1", type: "speech", speech: { voices: ["alloy"] } }], "speech")[0]?.voices // ["alloy"]
 */
export function mediaModelsListed(
  models: readonly ListedModel[],
  kind: Exclude<Modality, "chat" | "video">,
): { id: string }[] {
  const section = modalitySection(kind);
  const read: Record<string, object> = {};
  for (const model of models) {
    const metadata = model[kind];
    if (modelKind(model) !== kind || !isObject(metadata)) continue;
    const profile = (fields: object) => ({ [section]: { [model.id]: fields } });
    const own = `/${section}/${pointerKey(model.id)}/`;
    const foreign = new Set(
      validateProfile(profile(metadata))
        .filter((problem) => problem.code === "unknown_key" && problem.pointer.startsWith(own))
        .map((problem) => problem.pointer.slice(own.length))
        .filter((key) => !key.includes("/")),
    );
    const known = Object.fromEntries(
      Object.entries(metadata).filter(([key]) => !foreign.has(pointerKey(key))),
    );
    if (validateProfile(profile(known)).length === 0) read[model.id] = known;
  }
  return modelsFromProfile[kind]({ [section]: read });
}

/**
 * How a service's list describes each modality's models with the limits a profile declares
 * (metadata under the modality's name); chat models are listed by id only.
 */
const listedReaders: Record<
  Modality,
  ((models: readonly ListedModel[]) => readonly { id: string }[]) | undefined
> = {
  chat: undefined,
  video: videoModelsListed,
  image: (models) => mediaModelsListed(models, "image"),
  speech: (models) => mediaModelsListed(models, "speech"),
  transcription: (models) => mediaModelsListed(models, "transcription"),
};

/** A service's model list read as a provider profile's sections. */
export interface ListedModels {
  /** Every id listed. */
  ids: readonly string[];
  /**
   * The section a listed model's type names (`chat_models`, `video_models`, `image_models`,
   * `speech_models`, `transcription_models`); untyped: absent.
   */
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
 * its type names (`type: "video"` → `video_models`, chat → `chat_models`, `image`, `speech`,
 * `transcription` → their sections; core's `modelKind`), the video, image, speech and
 * transcription ones with their limits where their metadata reads as a profile's model.
 * @example listedModels([{ id: "reel-chat-1", type: "chat" }]).sectionOf.get("reel-chat-1") // "chat_models"
 */
export function listedModels(models: readonly ListedModel[]): ListedModels {
  const sectionOf = new Map<string, string>();
  for (const model of models) {
    const kind = modelKind(model);
    if (kind !== "unknown") sectionOf.set(model.id, modalitySection(kind));
  }
  const described: Record<string, readonly { id: string }[]> = {};
  for (const modality of modalities) {
    const read = listedReaders[modality];
    if (read) described[modalitySection(modality)] = read(models);
  }
  return {
    ids: models.map((model) => model.id),
    sectionOf,
    described,
  };
}
