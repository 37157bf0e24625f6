import { performance } from "node:perf_hooks";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  PermissionDeniedError,
} from "@reelsmith/core/errors";
import { resolveService } from "../config/cli-profile.js";
import type { SettingSource } from "../config/connection.js";
import { addSecret, type CliContext } from "../context.js";
import { openService } from "../services/open-service.js";

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
}

function describeFailure(error: unknown): { error: string; status?: number } {
  if (AuthenticationError.isInstance(error) || PermissionDeniedError.isInstance(error)) {
    return {
      status: error.status ?? 401,
      error: `the service answered ${error.status}: the API key was refused (check REELSMITH_API_KEY or --api-key)`,
    };
  }
  if (APIError.isInstance(error)) {
    return {
      ...(error.status !== undefined ? { status: error.status } : {}),
      error: `the service answered ${error.status ?? "with an error"}: ${error.message}`,
    };
  }
  if (APIConnectionError.isInstance(error)) return { error: `unreachable: ${error.message}` };
  return { error: (error as Error)?.message ?? String(error) };
}

async function listModels(
  client: ReelsmithClient,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Pick<ServiceCheck, "reachable" | "status" | "models" | "elapsedMs" | "error">> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const models = await client.models.list({ signal: AbortSignal.any([signal, deadline]) });
    return {
      reachable: true,
      status: 200,
      models: models.length,
      elapsedMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      reachable: false,
      ...(deadline.aborted
        ? { error: `no answer within ${timeoutMs / 1000} s` }
        : describeFailure(error)),
      elapsedMs: Math.round(performance.now() - started),
    };
  }
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
  const profileFacts = profile
    ? {
        profile: {
          file: profile.shown,
          dialect: described?.clientOptions.dialect ?? "reference",
          videoModels: profile.loaded.catalog.length,
          chatModels: profile.loaded.chatModels.length,
        },
      }
    : {};
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
