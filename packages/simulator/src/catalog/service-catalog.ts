import type { VideoModelCatalog } from "@reelsmith/core/catalog";
import {
  type ChatModelSpec,
  chatModelsFromProfile,
  estimateVideoCredits,
  imageModelsFromProfile,
  modelPriceUnits,
  type ProfileVideoModel,
  type ProviderProfile,
  parseProfile,
  speechModelsFromProfile,
  transcriptionModelsFromProfile,
  videoCatalogFromProfile,
} from "@reelsmith/core/profile";
import { videoCredits } from "../videos/credits.js";
import { type ChatModelInfo, chatModels } from "./chat-models.js";
import {
  type ListedMediaModel,
  listedMediaOf,
  listedMediaOfProfile,
} from "./listed-media-models.js";
import {
  type ImageModelInfo,
  imageModels,
  type SpeechModelInfo,
  speechFormats,
  speechModels,
  type TranscriptionModelInfo,
  transcriptionModels,
} from "./media-models.js";
import { videoModels, videoSpeedFactors } from "./video-models.js";

/** What one running simulator serves: its video and chat models, timing and prices. */
export interface ServiceCatalog {
  videoModels: VideoModelCatalog;
  chatModels: readonly ChatModelInfo[];
  /** Multiplier of a video model's job duration. */
  speedFactor(model: string): number;
  /** Credits charged when a job of `model` completes. */
  credits(model: string, seconds: number, width: number, height: number): number;
  /** Video models as `/v1/models` lists them (snake_case, as a profile writes them). */
  videoEntries: readonly { id: string; video: ProfileVideoModel }[];
  /** Image, speech and transcription models as `/v1/models` lists them, by type. */
  mediaEntries: readonly ListedMediaModel[];
  imageModels: readonly ImageModelInfo[];
  speechModels: readonly SpeechModelInfo[];
  transcriptionModels: readonly TranscriptionModelInfo[];
}

/**
 * The simulator's own catalog: three `reel-*` video models (credits by pixels × seconds), two
 * chat models, and an image, a speech and a transcription model. `/v1/models` lists the chat
 * models, then the video models with their limits (`type: "video"`), then the image, speech
 * and transcription ones with theirs, unless `listVideoModels` is false: then it answers as a
 * service that lists only its chat models, as the interface describes.
 *
 * @example
 * defaultCatalog().videoModels.map((model) => model.id); // ["reel-video-1", …]
 */
export function defaultCatalog(options: { listVideoModels?: boolean } = {}): ServiceCatalog {
  return {
    videoModels,
    chatModels,
    imageModels,
    speechModels,
    transcriptionModels,
    speedFactor: (model) => videoSpeedFactors[model] ?? 1,
    credits: (_model, seconds, width, height) => videoCredits(seconds, width, height),
    mediaEntries:
      options.listVideoModels === false
        ? []
        : listedMediaOf(imageModels, speechModels, transcriptionModels),
    videoEntries:
      options.listVideoModels === false
        ? []
        : videoModels.map((model) => ({
            id: model.id,
            video: {
              seconds: model.seconds as ProfileVideoModel["seconds"],
              sizes: model.sizes as ProfileVideoModel["sizes"],
              image: true,
              params: null,
              price: { per_megapixel_second: 10 },
            },
          })),
  };
}

/**
 * The catalog of a provider profile (validated with `@reelsmith/core/profile`; a bad profile
 * throws `InvalidProfileError` listing every problem): its video models with their limits,
 * parameters and prices (credits = per_clip + per_second × seconds + per_megapixel_second ×
 * megapixels × seconds, rounded up; 0 when no price is given), and its chat models with their capabilities (an unknown capability is allowed).
 *
 * @example
 * catalogFromProfile({ video_models: { "veo-3": { seconds: [4, 8] } } }).videoModels[0]?.id; // "veo-3"
 */
export function catalogFromProfile(
  document: unknown,
  options: { listVideoModels?: boolean } = {},
): ServiceCatalog {
  const profile: ProviderProfile = parseProfile(document);
  const catalog = videoCatalogFromProfile(profile);
  const units = unitsOf(profile);
  return {
    videoModels: catalog,
    chatModels: chatModelsFromProfile(profile).map(chatModelInfo),
    ...mediaModelsOf(profile, units),
    speedFactor: () => 1,
    credits(model, seconds, width, height) {
      const spec = catalog.find((entry) => entry.id === model);
      return (
        (spec && estimateVideoCredits(spec, seconds, `${width}x${height}`, units.get(model))) ?? 0
      );
    },
    mediaEntries: options.listVideoModels === false ? [] : listedMediaOfProfile(profile),
    videoEntries:
      options.listVideoModels === false
        ? []
        : Object.entries(profile.video_models ?? {}).map(([id, model]) => ({
            id,
            video: videoEntry(model),
          })),
  };
}

/**
 * A profile's image, speech and transcription models, with what the profile leaves unknown
 * filled in so the simulator can serve them: sizes `1024x1024`, 10 images and 16 references a
 * request, the simulator's voices (its own and OpenAI's names), the formats it encodes (of those the profile names), word
 * timestamps, and no charge; each priced in its provider's unit where that is not credits.
 */
function mediaModelsOf(
  profile: ProviderProfile,
  units: ReadonlyMap<string, string>,
): Pick<ServiceCatalog, "imageModels" | "speechModels" | "transcriptionModels"> {
  const voices = speechModels[0]?.voices ?? [];
  const unitOf = (id: string) => (units.has(id) ? { unit: units.get(id) as string } : {});
  return {
    imageModels: imageModelsFromProfile(profile).map((spec) => ({
      id: spec.id,
      sizes: spec.sizes ?? ["1024x1024"],
      maxReferences: spec.maxReferences ?? 16,
      maxImages: spec.maxImages ?? 10,
      creditsPerImage: spec.price?.perImage ?? 0,
      ...unitOf(spec.id),
    })),
    speechModels: speechModelsFromProfile(profile).map((spec) => ({
      id: spec.id,
      voices: spec.voices ?? voices,
      formats: spec.formats?.filter((format) => speechFormats.includes(format)) ?? speechFormats,
      creditsPer1000Characters: spec.price?.per1000Characters ?? 0,
      ...unitOf(spec.id),
    })),
    transcriptionModels: transcriptionModelsFromProfile(profile).map((spec) => ({
      id: spec.id,
      wordTimestamps: spec.wordTimestamps ?? true,
      creditsPerMinute: spec.price?.perMinute ?? 0,
      ...unitOf(spec.id),
    })),
  };
}

/** The unit each model of a profile is priced in, where its provider's is not credits. */
function unitsOf(profile: ProviderProfile): Map<string, string> {
  return new Map(modelPriceUnits(profile).map((entry) => [entry.id, entry.unit]));
}

function chatModelInfo(spec: ChatModelSpec): ChatModelInfo {
  return {
    id: spec.id,
    description: "A chat model of the profile.",
    images: spec.images ?? true,
    tools: spec.tools ?? true,
    json: spec.json ?? true,
    requiresJsonMention: false,
    contextWindow: 128_000,
  };
}

/** Every field of a profile's video model, null where unknown (so a reader sees what is not known). */
function videoEntry(model: ProfileVideoModel | null): ProfileVideoModel {
  return {
    seconds: model?.seconds ?? null,
    sizes: model?.sizes ?? null,
    image: model?.image ?? null,
    params: model?.params ?? null,
    price: model?.price ?? null,
  };
}
