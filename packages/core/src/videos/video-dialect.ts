import type { ProviderName } from "../providers/registry.js";

/**
 * The provider a client's video calls go to: a name of the provider registry
 * (`core/src/providers/registry.ts`): `reference` (the service interface), `openai` (OpenAI's
 * `/v1/videos`), `fal` (fal's queue), ….
 */
export type VideoDialect = ProviderName;
