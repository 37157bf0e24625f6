import type { IncomingMessage } from "node:http";

/**
 * Whether a change (a POST) may go on: a browser's request must come from the page's own
 * origin (its `Origin` header, which every browser sends with a POST, is the studio's address
 * as the request names it in `Host`); a request without `Origin` must prove the token by a
 * header, never by the cookie alone, so no other site's form can ride on the cookie.
 * @example if (!sameOrigin(request, proof)) respond(403);
 */
export function sameOrigin(request: IncomingMessage, proof: "header" | "cookie" | "none"): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return proof === "header";
  const host = request.headers.host;
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

/**
 * Whether the `Host` header names the studio. On loopback only its own names are accepted (a
 * page of another site whose name was pointed at 127.0.0.1, DNS rebinding, is refused); a
 * studio bound to another address (`--host`) is reached by names it cannot know, and relies
 * on its token.
 * @example allowedHost("127.0.0.1:4000", ["127.0.0.1:4000", "localhost:4000"]) // true
 */
export function allowedHost(host: string | undefined, hosts: readonly string[] | "any"): boolean {
  if (host === undefined) return false;
  return hosts === "any" || hosts.includes(host.toLowerCase());
}
