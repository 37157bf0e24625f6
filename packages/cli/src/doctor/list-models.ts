import { performance } from "node:perf_hooks";
import type { ReelsmithClient } from "@reelsmith/core";
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  PermissionDeniedError,
} from "@reelsmith/core/errors";

/** A service's answer to `GET /v1/models`. */
export interface ModelsAnswer {
  reachable: boolean;
  /** HTTP status, when one came back. */
  status?: number;
  /** How many models it listed. */
  models?: number;
  /** Milliseconds the request took. */
  elapsedMs: number;
  /** What went wrong, in words (never containing the key). */
  error?: string;
}

function describeFailure(error: unknown, keyHint: string): { error: string; status?: number } {
  if (AuthenticationError.isInstance(error) || PermissionDeniedError.isInstance(error)) {
    return {
      status: error.status ?? 401,
      error: `the service answered ${error.status}: the API key was refused (${keyHint})`,
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

/**
 * `GET /v1/models` with `timeoutMs` at most (the client makes no retries): whether it answered,
 * how many models, how long it took, and what went wrong in words (never the key).
 *
 * @example
 * const answer = await listModels(client, 5000, context.signal); // { reachable: true, status: 200, models: 7, elapsedMs: 12 }
 */
export async function listModels(
  client: ReelsmithClient,
  timeoutMs: number,
  signal: AbortSignal,
  keyHint = "check REELSMITH_API_KEY or --api-key",
): Promise<ModelsAnswer> {
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
        : describeFailure(error, keyHint)),
      elapsedMs: Math.round(performance.now() - started),
    };
  }
}
