import { falVideoProvider } from "./fal/index.js";
import { klingVideoProvider } from "./kling/index.js";
import { openaiVideoProvider } from "./openai/index.js";
import { referenceVideoProvider } from "./reference/index.js";
import { replicateVideoProvider } from "./replicate/index.js";
import type { VideoProvider } from "./video-provider.js";

/**
 * Every provider core speaks, one line each, by the name a profile's `service.dialect` and
 * `serve --dialect` use. Adding a provider: a folder under `providers/` and a line here.
 */
export const providers = {
  reference: { video: referenceVideoProvider },
  openai: { video: openaiVideoProvider },
  fal: { video: falVideoProvider },
  replicate: { video: replicateVideoProvider },
  kling: { video: klingVideoProvider },
} as const satisfies Record<string, { video: VideoProvider }>;

/** The name of a provider of the registry (`reference`, `openai`, `fal`, …). */
export type ProviderName = keyof typeof providers;

/** The providers' names, in the registry's order (for CLI choices, the profile schema, docs). */
export const providerNames = Object.keys(providers) as ProviderName[];

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
  return providers[name].video;
}

/** `reference (…), openai (…) or fal (…)`: the providers with what each is, for help texts. */
export function describeProviders(): string {
  const parts = providerNames.map((name) => `${name} (${providers[name].video.description})`);
  return parts.length > 1
    ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`
    : (parts[0] ?? "");
}
