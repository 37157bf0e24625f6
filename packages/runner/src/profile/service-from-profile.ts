import { providerAccess, providerAccounts } from "@reelsmith/core/catalog";
import type { ProfileClientOptions } from "@reelsmith/core/profile";
import type { LoadedProfile } from "./load-profile.js";

/** The service a profile describes, resolved against an environment. */
export interface ProfileService {
  /** `service.base_url`, when the profile sets one. */
  baseURL?: string;
  /**
   * The key, from the first variable of `service.api_key_env` that is set (for a provider
   * whose key has parts, such as an access key and a secret key: every variable, one per part, their
   * values joined by `:`). Never print it.
   */
  apiKey?: string;
  /** The variable the key came from (safe to print). */
  apiKeyVariable?: string;
  /** The variables `service.api_key_env` names, in order (for "set one of …" messages). */
  apiKeyVariables: string[];
  /** What the profile sets of `createClient()`'s options (dialect, catalog, …), never the key. */
  clientOptions: ProfileClientOptions;
  /** The profile's other provider accounts (`providers:`), each resolved the same way. */
  accounts: ProfileAccountService[];
}

/** One account of a profile's `providers:`, resolved against an environment. */
export interface ProfileAccountService extends Omit<ProfileService, "accounts"> {
  /** Its name under `providers:`. */
  name: string;
  /** Video jobs the account runs at once, when the profile says (`max_concurrent_jobs`). */
  maxConcurrentJobs?: number;
}

/** The key from a list of variables: the first set one, or every part of a parted key. */
function keyFrom(
  apiKeyVariables: string[],
  dialect: Parameters<typeof providerAccess>[0],
  env: Record<string, string | undefined>,
): Pick<ProfileService, "apiKey" | "apiKeyVariable"> {
  const parts = providerAccess(dialect).keyParts;
  if (parts && parts.length > 1) {
    const values = apiKeyVariables.map((name) => env[name]);
    const complete = apiKeyVariables.length === parts.length && values.every(Boolean);
    return complete ? { apiKey: values.join(":"), apiKeyVariable: apiKeyVariables.join("+") } : {};
  }
  const apiKeyVariable = apiKeyVariables.find((name) => Boolean(env[name]));
  return apiKeyVariable ? { apiKey: env[apiKeyVariable], apiKeyVariable } : {};
}

/**
 * The service of a loaded profile: its base URL, the key from the first set environment
 * variable named in `service.api_key_env` (and which one), and the client options it sets.
 *
 * @example
 * ```ts
 * const service = serviceFromProfile(await loadProfile("reelsmith.config.yaml"), process.env);
 * const client = createClient({ ...service.clientOptions, apiKey: service.apiKey });
 * ```
 */
export function serviceFromProfile(
  loaded: Pick<LoadedProfile, "profile" | "clientOptions">,
  env: Record<string, string | undefined>,
): ProfileService {
  const settings = loaded.profile.service ?? {};
  const apiKeyVariables = [...(settings.api_key_env ?? [])];
  const accounts = providerAccounts(loaded.profile).map(
    (account): ProfileAccountService => ({
      name: account.name,
      ...(account.clientOptions.baseURL ? { baseURL: account.clientOptions.baseURL } : {}),
      ...keyFrom(account.apiKeyEnv, account.clientOptions.dialect ?? "reference", env),
      apiKeyVariables: account.apiKeyEnv,
      clientOptions: account.clientOptions,
      ...(account.maxConcurrentJobs !== undefined
        ? { maxConcurrentJobs: account.maxConcurrentJobs }
        : {}),
    }),
  );
  return {
    ...(settings.base_url ? { baseURL: settings.base_url } : {}),
    ...keyFrom(apiKeyVariables, loaded.clientOptions.dialect ?? "reference", env),
    apiKeyVariables,
    clientOptions: loaded.clientOptions,
    accounts,
  };
}
