/**
 * Which HTTP statuses are worth repeating, and how long to wait before doing so.
 * Kept as data so the policy can be read (and tested) in one place.
 */
export const retryableStatuses: ReadonlySet<number> = new Set([
  408, // Request Timeout: the server gave up waiting for us; a new attempt may be faster.
  409, // Conflict: a lock or concurrent request on the server side; usually transient.
  429, // Too Many Requests: rate limited; wait (retry-after) and try again.
  500, // Internal Server Error: may be transient.
  502, // Bad Gateway: a proxy could not reach the service.
  503, // Service Unavailable: overloaded or restarting.
  504, // Gateway Timeout: a proxy gave up waiting.
]);

/** True for the statuses above and any other 5xx. */
export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status) || status >= 500;
}

/**
 * Exponential back-off with jitter: `base * 2^retry`, capped, then scaled by a random
 * factor in [0.75, 1] so that many clients do not retry in lockstep.
 */
export function backoffDelay(
  retry: number,
  baseMs: number,
  capMs: number,
  random = Math.random,
): number {
  const exponential = Math.min(baseMs * 2 ** retry, capMs);
  return Math.round(exponential * (0.75 + 0.25 * random()));
}

/**
 * The server's requested delay from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds or an HTTP date), capped at `maxMs`. Undefined when absent or unparsable.
 */
export function retryAfterDelay(
  headers: Record<string, string | string[] | undefined>,
  maxMs: number,
  now = Date.now(),
): number | undefined {
  const first = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  let delay: number | undefined;
  const ms = first("retry-after-ms");
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) delay = Number(ms);
  const after = first("retry-after");
  if (delay === undefined && after !== undefined && after.trim() !== "") {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) delay = seconds * 1000;
    else {
      const date = Date.parse(after);
      if (!Number.isNaN(date)) delay = date - now;
    }
  }
  if (delay === undefined || Number.isNaN(delay)) return undefined;
  return Math.round(Math.min(Math.max(delay, 0), maxMs));
}

/** Error codes (anywhere in the cause chain) that prove the request was never written. */
const connectPhaseCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED", // nobody listens on the port
  "UND_ERR_CONNECT_TIMEOUT", // the TCP/TLS connection was never established
  "ENOTFOUND", // DNS: no such host
  "EAI_AGAIN", // DNS: temporary failure
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

/** All `code`s found along an error's `cause` chain. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    const nested = (current as { errors?: unknown }).errors; // AggregateError (happy eyeballs)
    if (Array.isArray(nested)) for (const inner of nested) codes.push(...errorCodes(inner));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** True when the failure happened while connecting, so nothing reached the server. */
export function isConnectPhaseError(error: unknown): boolean {
  const codes = errorCodes(error);
  return codes.length > 0 && codes.some((code) => connectPhaseCodes.has(code));
}
