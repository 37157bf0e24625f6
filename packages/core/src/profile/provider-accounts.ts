import {
  clientOptionsFromProfile,
  type ProfileClientOptions,
} from "./client-options-from-profile.js";
import { parseDuration } from "./parse-duration.js";
import type { PriceUnit, ProviderProfile } from "./profile-types.js";

/** One account of a profile's `providers:` map, as core uses it (never its key). */
export interface ProviderAccount {
  /** Its name under `providers:`. */
  name: string;
  /** The variables of its key, in order (`api_key_env`). */
  apiKeyEnv: string[];
  /** Video jobs the account runs at once, when the profile says. */
  maxConcurrentJobs?: number;
  /** The unit of its models' prices (default credits). */
  unit: PriceUnit;
  /** Credits one `unit` is worth, when the profile states a rate. */
  creditsPerUnit?: number;
  /** The client options for this account: its dialect, base URL, idempotency, polling, catalogs. */
  clientOptions: ProfileClientOptions;
}

/** The unit a model's price is stated in, when its provider's is not credits. */
export interface ModelPriceUnit {
  /** The model's id. */
  id: string;
  /** The provider that serves it. */
  provider: string;
  unit: PriceUnit;
  /** Credits one `unit` is worth, when the profile states a rate. */
  creditsPerUnit?: number;
}

/**
 * The accounts of a (validated) profile's `providers:` map, in the order written, each with
 * the client options to reach it (the profile's catalogs, its own dialect and address).
 *
 * @example
 * ```ts
 * providerAccounts({ providers: { fal: { dialect: "fal", api_key_env: ["FAL_KEY"] } } });
 * // [{ name: "fal", apiKeyEnv: ["FAL_KEY"], unit: "credits", clientOptions: { dialect: "fal", … } }]
 * ```
 */
export function providerAccounts(profile: ProviderProfile): ProviderAccount[] {
  const shared = clientOptionsFromProfile({ ...profile, service: {} });
  return Object.entries(profile.providers ?? {}).map(([name, provider]) => {
    const clientOptions: ProfileClientOptions = {
      ...shared,
      dialect: provider.dialect,
      honoursIdempotencyKeys: provider.idempotency_keys === true,
      listsJobs: provider.lists_jobs === true,
    };
    if (provider.base_url !== undefined) clientOptions.baseURL = provider.base_url;
    if (provider.poll_interval !== undefined)
      clientOptions.pollIntervalMs = parseDuration(provider.poll_interval);
    return {
      name,
      apiKeyEnv: [...(provider.api_key_env ?? [])],
      ...(provider.max_concurrent_jobs !== undefined
        ? { maxConcurrentJobs: provider.max_concurrent_jobs }
        : {}),
      unit: provider.unit ?? "credits",
      ...(provider.credits_per_unit !== undefined
        ? { creditsPerUnit: provider.credits_per_unit }
        : {}),
      clientOptions,
    };
  });
}

/**
 * Which provider serves each model that names one (`provider:` in any `*_models` section).
 * A model that names none is served by the profile's `service`.
 *
 * @example
 * ```ts
 * modelProviders({ video_models: { "fal-ai/x": { provider: "fal" } } }); // Map { "fal-ai/x" => "fal" }
 * ```
 */
export function modelProviders(profile: ProviderProfile): Map<string, string> {
  const found = new Map<string, string>();
  for (const [section, models] of Object.entries(profile)) {
    if (!section.endsWith("_models") || !models || typeof models !== "object") continue;
    for (const [id, model] of Object.entries(models as Record<string, unknown>)) {
      const provider = (model as { provider?: unknown } | null)?.provider;
      if (typeof provider === "string") found.set(id, provider);
    }
  }
  return found;
}

/**
 * The models priced in a unit other than credits (their provider's `unit:`), with the rate to
 * credits where the profile states one. A model of `service` is priced in credits.
 *
 * @example
 * ```ts
 * modelPriceUnits({ providers: { fal: { dialect: "fal", unit: "usd" } }, video_models: { v: { provider: "fal" } } });
 * // [{ id: "v", provider: "fal", unit: "usd" }]
 * ```
 */
export function modelPriceUnits(profile: ProviderProfile): ModelPriceUnit[] {
  const accounts = new Map(providerAccounts(profile).map((account) => [account.name, account]));
  const units: ModelPriceUnit[] = [];
  for (const [id, name] of modelProviders(profile)) {
    const account = accounts.get(name);
    if (!account || account.unit === "credits") continue;
    units.push({
      id,
      provider: name,
      unit: account.unit,
      ...(account.creditsPerUnit !== undefined ? { creditsPerUnit: account.creditsPerUnit } : {}),
    });
  }
  return units;
}
