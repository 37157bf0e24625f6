import { createClient, type ReelsmithClient } from "@reelsmith/core";
import { resolveService } from "../config/cli-profile.js";
import type { SettingSource } from "../config/connection.js";
import { addSecret, type CliContext } from "../context.js";
import { openService } from "../services/open-service.js";
import { type AccountCheck, checkAccounts } from "./check-accounts.js";
import { listModels } from "./list-models.js";

/** What `reelsmith doctor` found out about the service. */
export interface ServiceCheck {
  /** `configured`: a base URL from a flag or the environment; `built-in`: the simulator. */
  mode: "configured" | "built-in";
  /** The base URL asked (for the built-in simulator: where it listened for the check). */
  baseURL: string;
  baseURLSource: SettingSource;
  /** Whether a key is set and where it came from (the profile's variable); never the key. */
  apiKey: { set: boolean; source: SettingSource; variable?: string };
  /** The provider profile in use: its file (as shown), dialect and how many models it declares. */
  profile?: { file: string; dialect: string; videoModels: number; chatModels: number };
  reachable: boolean;
  /** HTTP status of `GET /v1/models`, when one came back. */
  status?: number;
  /** How many models the service listed. */
  models?: number;
  /** Milliseconds the request took. */
  elapsedMs: number;
  /** What went wrong, in words (never containing the key). */
  error?: string;
  /** The profile's other provider accounts (`providers:`), each checked on its own. */
  accounts: AccountCheck[];
}

/**
 * `GET /v1/models` on the configured service (no retries, `timeoutMs` at most), or on the
 * built-in simulator started for the check when no base URL is configured.
 *
 * @example
 * const service = await checkService({}, context, 5000);
 * if (!service.reachable) console.error(service.error);
 */
export async function checkService(
  flags: { baseUrl?: string; apiKey?: string },
  context: CliContext,
  timeoutMs: number,
): Promise<ServiceCheck> {
  const { connection, profile, service: described } = await resolveService(flags, context);
  addSecret(context, connection.apiKey);
  const apiKey = {
    set: Boolean(connection.apiKey),
    source: connection.apiKeySource,
    ...(connection.apiKeyVariable ? { variable: connection.apiKeyVariable } : {}),
  };
  const accounts = await checkAccounts(
    described?.accounts ?? [],
    { serviceConfigured: Boolean(connection.baseURL), where: profile?.shown ?? "the profile" },
    context,
    timeoutMs,
  );
  const profileFacts = profile
    ? {
        accounts,
        profile: {
          file: profile.shown,
          dialect: described?.clientOptions.dialect ?? "reference",
          videoModels: profile.loaded.catalog.length,
          chatModels: profile.loaded.chatModels.length,
        },
      }
    : { accounts };
  if (connection.baseURL) {
    let client: ReelsmithClient;
    try {
      client = createClient({
        ...described?.clientOptions,
        baseURL: connection.baseURL,
        apiKey: connection.apiKey,
        maxRetries: 0,
        timeoutMs,
      });
    } catch (error) {
      return {
        mode: "configured",
        baseURL: connection.baseURL,
        baseURLSource: connection.baseURLSource,
        apiKey,
        ...profileFacts,
        reachable: false,
        elapsedMs: 0,
        error: (error as Error).message,
      };
    }
    return {
      mode: "configured",
      baseURL: client.baseURL,
      baseURLSource: connection.baseURLSource,
      apiKey,
      ...profileFacts,
      ...(await listModels(client, timeoutMs, context.signal)),
    };
  }
  const service = await openService({}, context, () => {});
  try {
    return {
      mode: "built-in",
      baseURL: service.baseURL,
      baseURLSource: "none",
      apiKey,
      ...profileFacts,
      ...(await listModels(service.client, timeoutMs, context.signal)),
    };
  } finally {
    await service.close();
  }
}
