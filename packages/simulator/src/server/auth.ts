import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError } from "../errors/http-error.js";

/**
 * Check `Authorization: Bearer <key>`; throws a 401 that never echoes the key sent.
 *
 * @example
 * checkAuthorization(request.headers.authorization, simulator.apiKey);
 */
export function checkAuthorization(header: string | undefined, apiKey: string): void {
  if (!header) {
    throw new HttpError(
      401,
      "You didn't provide an API key. Send it as `Authorization: Bearer <API_KEY>`.",
      {
        code: "missing_api_key",
      },
    );
  }
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match || !sameSecret(match[1] ?? "", apiKey)) {
    throw new HttpError(401, "Incorrect API key provided.", { code: "invalid_api_key" });
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
