/** Per-call options accepted by every client method. */
export interface RequestOptions {
  /** Cancels the call, including retries, back-off sleeps, polling and downloads. */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry count. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}
