/**
 * @reelsmith/core/providers: each video and speech provider's adapter (reference, OpenAI, fal,
 * Replicate, Kling, ElevenLabs), their registry and the interfaces a provider implements.
 *
 * @example
 * ```ts
 * import { providerNames } from "@reelsmith/core/providers";
 * providerNames(); // ["reference", "openai", …]
 * ```
 */
export * from "./providers/index.js";
