import type { IncomingMessage } from "node:http";

/**
 * Whether a change (a POST) may go on: a browser's request must come from the studio's own
 * origin (its `Origin` header, which every browser sends with a POST, names the studio); a
 * request without `Origin` must prove the token by a header, never by the cookie alone, so
 * no other site's form can ride on the cookie.
 * @example if (!sameOrigin(request, "http://127.0.0.1:4000", proof)) respond(403);
 */
export function sameOrigin(
  request: IncomingMessage,
  origins: readonly string[],
  proof: "header" | "cookie" | "none",
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return proof === "header";
  return origins.includes(origin);
}

/**
 * Whether the `Host` header names the studio (a page of another site that made its name point
 * at 127.0.0.1, DNS rebinding, is refused).
 * @example allowedHost("127.0.0.1:4000", ["127.0.0.1:4000", "localhost:4000"]) // true
 */
export function allowedHost(host: string | undefined, hosts: readonly string[]): boolean {
  return host !== undefined && hosts.includes(host.toLowerCase());
}
