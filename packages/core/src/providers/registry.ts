import { InvalidRequestError } from "../errors/invalid-request-error.js";
import type { ProviderAccess } from "../http/provider-access.js";
import { modalities } from "../models/modalities.js";
import { elevenlabsSpeechProvider, elevenlabsTranscriptionProvider } from "./elevenlabs/index.js";
import { falImageProvider, falSpeechProvider, falVideoProvider } from "./fal/index.js";
import type { ImageProvider } from "./image-provider.js";
import { klingVideoProvider } from "./kling/index.js";
import {
  openaiImageProvider,
  openaiSpeechProvider,
  openaiTranscriptionProvider,
  openaiVideoProvider,
} from "./openai/index.js";
import {
  referenceImageProvider,
  referenceSpeechProvider,
  referenceTranscriptionProvider,
  referenceVideoProvider,
} from "./reference/index.js";
import { replicateImageProvider, replicateVideoProvider } from "./replicate/index.js";
import type { SpeechProvider } from "./speech-provider.js";
import type { TranscriptionProvider } from "./transcription-provider.js";
import type { VideoProvider } from "./video-provider.js";

/** What one provider speaks: one side per modality it serves (video, image, speech, transcription). */
export interface ProviderEntry {
  video?: VideoProvider;
  image?: ImageProvider;
  speech?: SpeechProvider;
  transcription?: TranscriptionProvider;
}

/**
 * Every provider core speaks, one line each, by the name a profile's `service.dialect` and
 * `serve --dialect` use. Adding a provider: a folder under `providers/` and a line here.
 */
export const providers = {
  reference: {
    video: referenceVideoProvider,
    image: referenceImageProvider,
    speech: referenceSpeechProvider,
    transcription: referenceTranscriptionProvider,
  },
  openai: {
    video: openaiVideoProvider,
    image: openaiImageProvider,
    speech: openaiSpeechProvider,
    transcription: openaiTranscriptionProvider,
  },
  fal: { video: falVideoProvider, image: falImageProvider, speech: falSpeechProvider },
  replicate: { video: replicateVideoProvider, image: replicateImageProvider },
  kling: { video: klingVideoProvider },
  elevenlabs: { speech: elevenlabsSpeechProvider, transcription: elevenlabsTranscriptionProvider },
} as const satisfies Record<string, ProviderEntry>;

/** The name of a provider of the registry (`reference`, `openai`, `fal`, …). */
export type ProviderName = keyof typeof providers;

/** The providers' names, in the registry's order (for CLI choices, the profile schema, docs). */
export const providerNames = Object.keys(providers) as ProviderName[];

/** The modalities a provider serves (one side each), in the modalities' order. */
export type ProviderModality = keyof ProviderEntry;

/**
 * The modalities a provider serves, in core's order of the modalities (video, image, speech,
 * transcription): each is a side of its registry entry.
 * @example providerModalities("elevenlabs"); // ["speech", "transcription"]
 */
export function providerModalities(name: ProviderName): ProviderModality[] {
  const entry = entryOf(name);
  return modalities.filter(
    (modality): modality is ProviderModality =>
      Object.hasOwn(entry, modality) && entry[modality as ProviderModality] !== undefined,
  );
}

/** Whether `name` is a provider of the registry. */
export function isProviderName(name: unknown): name is ProviderName {
  return typeof name === "string" && Object.hasOwn(providers, name);
}

/**
 * The video side of a provider.
 *
 * @example
 * ```ts
 * videoProvider("fal").authHeaders(key); // { authorization: "Key …" }
 * ```
 */
export function videoProvider(name: ProviderName): VideoProvider {
  const video = entryOf(name).video;
  if (!video) throw lacks(name, "video");
  return video;
}

/**
 * The speech side of a provider.
 *
 * @example
 * ```ts
 * speechProvider("elevenlabs").authHeaders(key); // { "xi-api-key": "…" }
 * ```
 */
export function speechProvider(name: ProviderName): SpeechProvider {
  const speech = entryOf(name).speech;
  if (!speech) throw lacks(name, "speech");
  return speech;
}

/**
 * The image side of a provider.
 *
 * @example
 * ```ts
 * imageProvider("reference").edit !== undefined; // true: it takes reference images
 * ```
 */
export function imageProvider(name: ProviderName): ImageProvider {
  const image = entryOf(name).image;
  if (!image) throw lacks(name, "image");
  return image;
}

/**
 * The transcription side of a provider.
 *
 * @example
 * ```ts
 * transcriptionProvider("openai").name; // "openai"
 * ```
 */
export function transcriptionProvider(name: ProviderName): TranscriptionProvider {
  const transcription = entryOf(name).transcription;
  if (!transcription) throw lacks(name, "transcription");
  return transcription;
}

/**
 * How requests to a provider are authenticated and keyed, whichever side they are for (the
 * transport's view: every side of one provider shares its key and its header).
 */
export function providerAccess(name: ProviderName): ProviderAccess {
  const entry = entryOf(name);
  const side = entry.video ?? entry.image ?? entry.speech ?? entry.transcription;
  if (!side) throw new TypeError(`The ${name} provider has no API`);
  return side;
}

function entryOf(name: ProviderName): ProviderEntry {
  return providers[name] as ProviderEntry;
}

/**
 * A request of a modality the provider does not make: refused before anything is sent, as
 * invalid input (a profile that routes a model there is refused before, at its line).
 */
function lacks(name: ProviderName, side: keyof ProviderEntry): InvalidRequestError {
  const names = providerNames.filter((other) => entryOf(other)[side] !== undefined);
  return new InvalidRequestError(
    "model",
    `The ${name} provider has no ${side} API; the providers with one: ${names.join(", ")}. Route the model to an account of one of them (a profile's \`provider:\`), or use a service that speaks one.`,
  );
}

/** `reference (…), openai (…) or fal (…)`: the providers with what each is, for help texts. */
export function describeProviders(): string {
  const parts = providerNames.map((name) => `${name} (${providerAccess(name).description})`);
  return parts.length > 1
    ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`
    : (parts[0] ?? "");
}
