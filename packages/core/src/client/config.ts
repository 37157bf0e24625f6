import { MissingConfigurationError } from "../errors/missing-configuration-error.js";
import type { TransportConfig } from "../http/transport-config.js";
import { describeProviders, isProviderName, providerNames } from "../providers/registry.js";
import type { VideoDialect } from "../videos/video-dialect.js";
import { baseURLProblem } from "./base-url.js";
import type { ClientOptions } from "./options.js";

/** Options of a client after defaults and environment fallbacks are applied. */
export interface ResolvedConfig extends TransportConfig {
  apiKey: string | undefined;
  videoModels: ClientOptions["videoModels"];
  dialect: VideoDialect;
}

/**
 * Removes the query, trailing slashes and one trailing `/v1` from a base URL (the client
 * appends `/v1/...` itself). Refuses one that is not an http(s) URL with a host, or that holds
 * credentials (see {@link baseURLProblem}).
 *
 * @example
 * ```ts
 * normalizeBaseURL("https://api.example.com/v1/"); // "https://api.example.com"
 * ```
 */
export function normalizeBaseURL(value: string): string {
  const problem = baseURLProblem(value);
  if (problem)
    throw new MissingConfigurationError(
      "baseURL",
      `${problem[0]?.toUpperCase()}${problem.slice(1)}.`,
    );
  const url = new URL(value.trim());
  url.search = "";
  url.hash = "";
  let path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith("/v1")) path = path.slice(0, -3);
  return `${url.origin}${path.replace(/\/+$/, "")}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

function checkNumber(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new TypeError(
      `Expected \`${name}\` to be a finite number >= ${min}, got ${String(value)}`,
    );
  }
  return value;
}

function checkDialect(dialect: VideoDialect | undefined): VideoDialect {
  if (dialect === undefined) return "reference";
  if (!isProviderName(dialect)) {
    throw new TypeError(
      `Expected \`dialect\` to be one of ${providerNames.map((name) => JSON.stringify(name)).join(", ")} (${describeProviders()}), got ${JSON.stringify(dialect)}`,
    );
  }
  return dialect;
}

/** Applies defaults and the REELSMITH_* then OPENAI_* environment fallbacks. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const rawBase =
    nonEmpty(options.baseURL) ?? nonEmpty(env.REELSMITH_BASE_URL) ?? nonEmpty(env.OPENAI_BASE_URL);
  return {
    baseURL: rawBase === undefined ? undefined : normalizeBaseURL(rawBase),
    apiKey:
      nonEmpty(options.apiKey) ?? nonEmpty(env.REELSMITH_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY),
    timeoutMs: checkNumber("timeoutMs", options.timeoutMs, 60_000, 1),
    streamIdleTimeoutMs: checkNumber("streamIdleTimeoutMs", options.streamIdleTimeoutMs, 30_000, 1),
    maxRetries: Math.floor(checkNumber("maxRetries", options.maxRetries, 2, 0)),
    maxRetryDelayMs: checkNumber("maxRetryDelayMs", options.maxRetryDelayMs, 60_000, 0),
    retryBaseDelayMs: checkNumber("retryBaseDelayMs", options.retryBaseDelayMs, 500, 0),
    retryMaxBackoffMs: checkNumber("retryMaxBackoffMs", options.retryMaxBackoffMs, 8_000, 0),
    pollIntervalMs: checkNumber("pollIntervalMs", options.pollIntervalMs, 5_000, 1),
    logger: options.logger ?? {},
    videoModels: options.videoModels ?? null,
    defaultHeaders: { ...(options.defaultHeaders ?? {}) },
    honoursIdempotencyKeys: options.honoursIdempotencyKeys === true,
    listsJobs: options.listsJobs,
    dialect: checkDialect(options.dialect),
    beforeRequest: options.beforeRequest,
  };
}
