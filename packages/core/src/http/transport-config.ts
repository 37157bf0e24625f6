/**
 * Where the client reports what it does (requests, retries). Every method is optional;
 * the client never prints by itself. `fields` never contain the API key.
 *
 * @example
 * ```ts
 * const client = createClient({ logger: { warn: (message, fields) => myLog.warn(fields, message) } });
 * ```
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

/** A request about to be sent, as `beforeRequest` sees it. */
export interface OutgoingRequest {
  method: string;
  /** The path (or absolute URL) it is sent to. */
  path: string;
  /** Set for a paid submission (a video, image, speech or transcription request). */
  idempotencyKey?: string;
}

/**
 * What the transport, and the providers and readers behind it, read of a client's options
 * once defaults and environment fallbacks are applied (the client's `ResolvedConfig` adds its
 * key, dialect and video models).
 */
export interface TransportConfig {
  /** Normalised base URL, or undefined when none was configured (error on first call). */
  baseURL: string | undefined;
  timeoutMs: number;
  streamIdleTimeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  retryBaseDelayMs: number;
  retryMaxBackoffMs: number;
  pollIntervalMs: number;
  logger: Logger;
  defaultHeaders: Record<string, string>;
  honoursIdempotencyKeys: boolean;
  /** undefined: try listing, a 404/405/501 means the service does not list. */
  listsJobs: boolean | undefined;
  beforeRequest: ((request: OutgoingRequest) => void | Promise<void>) | undefined;
}
