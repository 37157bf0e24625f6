import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = "X-Reelsmith-Signature";

/** How old a signed timestamp may be before {@link verifyNotificationSignature} refuses it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function digest(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest("hex");
}

/**
 * The signature header's value for a body: HMAC-SHA256 with the secret over
 * `<timestamp>.<body bytes>`, as `t=<timestamp>,v1=<hex>`. Signing the timestamp lets a
 * receiver refuse a replayed delivery.
 *
 * @example
 * signNotification({ body, secret: "whsec-1", timestamp: 1767225600 });
 * // "t=1767225600,v1=5f0c…"
 */
export function signNotification(options: {
  body: string | Uint8Array;
  secret: string;
  /** Unix time in seconds. */
  timestamp: number;
}): string {
  return `t=${options.timestamp},v1=${digest(options.secret, options.timestamp, options.body)}`;
}

/**
 * Check a received notification: the header's `v1` must be the HMAC of `t.` and the exact
 * body bytes received (before any JSON parsing), and `t` at most `toleranceSeconds` away
 * from now. Compares in constant time.
 *
 * @example
 * const ok = verifyNotificationSignature({
 *   body: rawBody, header: request.headers["x-reelsmith-signature"], secret,
 * });
 */
export function verifyNotificationSignature(options: {
  body: string | Uint8Array;
  header: string | undefined;
  secret: string;
  toleranceSeconds?: number;
  /** Unix time in seconds (default: now). */
  now?: number;
}): boolean {
  if (!options.header) return false;
  const fields = new Map<string, string[]>();
  for (const part of options.header.split(",")) {
    const [key, ...rest] = part.trim().split("=");
    if (!key || rest.length === 0) continue;
    fields.set(key, [...(fields.get(key) ?? []), rest.join("=")]);
  }
  const timestamp = Number(fields.get("t")?.[0]);
  if (!Number.isInteger(timestamp)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) return false;
  const expected = Buffer.from(digest(options.secret, timestamp, options.body), "hex");
  return (fields.get("v1") ?? []).some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
