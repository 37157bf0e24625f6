import { createHmac } from "node:crypto";

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

/**
 * The short-lived token Kling's API wants as `Authorization: Bearer …`: a JWT signed HS256
 * with the secret key, `{ iss: accessKey, exp: now + 30 min, nbf: now - 5 s }`.
 *
 * Made with node:crypto's HMAC rather than a JWT library: the provider seam's `authHeaders`
 * is synchronous (the transport builds headers per attempt), and the npm JWT libraries that
 * are well kept (`jose`) sign asynchronously only. The tests check these tokens with `jose`.
 *
 * @example
 * ```ts
 * klingToken("ak-1", "sk-1"); // "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.…"
 * ```
 */
export function klingToken(accessKey: string, secretKey: string, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ iss: accessKey, exp: now + 1800, nbf: now - 5 }));
  const signature = createHmac("sha256", secretKey).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64url(signature)}`;
}

/**
 * Kling's key as reelsmith keeps it: the access key and the secret key joined by `:` (a
 * profile names one variable for each, `api_key_env: [KLING_ACCESS_KEY, KLING_SECRET_KEY]`).
 *
 * @example
 * ```ts
 * splitKlingKey("ak-1:sk-1"); // { accessKey: "ak-1", secretKey: "sk-1" }
 * ```
 */
export function splitKlingKey(apiKey: string): { accessKey: string; secretKey: string } {
  const at = apiKey.indexOf(":");
  if (at <= 0 || at === apiKey.length - 1) {
    throw new TypeError(
      "Expected Kling's key as <access key>:<secret key> (set KLING_ACCESS_KEY and KLING_SECRET_KEY, named in the profile's api_key_env)",
    );
  }
  return { accessKey: apiKey.slice(0, at), secretKey: apiKey.slice(at + 1) };
}
