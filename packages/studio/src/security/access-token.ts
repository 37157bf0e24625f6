import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The cookie the studio sets from the printed URL's `?token=`. */
export const TOKEN_COOKIE = "reelsmith_studio";

/**
 * A new random token (32 bytes, base64url): every request to the studio must carry it.
 * @example const token = createToken(); // "q3…" (43 characters)
 */
export function createToken(): string {
  return randomBytes(32).toString("base64url");
}

function same(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** How a request proved it knows the token: by a header, by the cookie, or not at all. */
export type TokenProof = "header" | "cookie" | "none";

/**
 * Which proof of the token a request carries: `Authorization: Bearer …` or
 * `X-Reelsmith-Token: …` (a script's), or the HttpOnly cookie (the browser's).
 * @example if (tokenProof(request, token) === "none") respond(401);
 */
export function tokenProof(request: IncomingMessage, token: string): TokenProof {
  const authorization = request.headers.authorization;
  const bearer = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : undefined;
  const header = request.headers["x-reelsmith-token"];
  if (same(bearer, token) || same(typeof header === "string" ? header : undefined, token))
    return "header";
  if (same(cookieOf(request, TOKEN_COOKIE), token)) return "cookie";
  return "none";
}

/**
 * The `Set-Cookie` value that carries the token from the printed URL on: HttpOnly (no script
 * reads it), SameSite=Strict (no other site's page sends it), the whole studio's path.
 * @example response.setHeader("Set-Cookie", tokenCookie(token));
 */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** True when `given` (a `?token=` value) is the token. */
export function isToken(given: string | null, token: string): boolean {
  return same(given ?? undefined, token);
}
