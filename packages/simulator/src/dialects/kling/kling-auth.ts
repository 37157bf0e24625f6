import { createHmac, timingSafeEqual } from "node:crypto";
import { HttpError } from "../../errors/http-error.js";

function refuse(code: number, message: string): HttpError {
  return new HttpError(401, message, { code: `kling_${code}` });
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks Kling's `Authorization: Bearer <JWT>` as Kling does: an HS256 token signed with the
 * secret key, issued (`iss`) by the access key, within its `nbf`/`exp` window. The
 * simulator's key is `<access key>:<secret key>`. Refusals carry Kling's codes: 1001 no
 * header, 1002 not a valid token, 1003 not yet valid, 1004 expired, 1000 wrong key.
 *
 * @example
 * checkKlingToken(request.headers.authorization, "ak-1:sk-1");
 */
export function checkKlingToken(header: string | undefined, apiKey: string, nowMs = Date.now()) {
  const at = apiKey.indexOf(":");
  const accessKey = at > 0 ? apiKey.slice(0, at) : apiKey;
  const secretKey = at > 0 ? apiKey.slice(at + 1) : apiKey;
  if (!header) throw refuse(1001, "Authorization is empty: send `Authorization: Bearer <JWT>`.");
  const token = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? "";
  const parts = token.split(".");
  const [head = "", body = "", signature = ""] = parts;
  const header_ = decodeJson(head);
  const claims = decodeJson(body);
  if (parts.length !== 3 || !header_ || !claims || header_.alg !== "HS256") {
    throw refuse(1002, "Authorization is invalid: expected an HS256 JWT.");
  }
  const expected = createHmac("sha256", secretKey).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refuse(
      1000,
      "Authorization failed: the token's signature does not match the secret key.",
    );
  }
  if (claims.iss !== accessKey) {
    throw refuse(1000, "Authorization failed: the token's issuer is not the access key.");
  }
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.nbf === "number" && now < claims.nbf) {
    throw refuse(1003, "Authorization is not yet valid (nbf is in the future).");
  }
  if (typeof claims.exp !== "number" || now >= claims.exp) {
    throw refuse(1004, "Authorization has expired: make a new token.");
  }
}
