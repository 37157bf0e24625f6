import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError } from "../errors/http-error.js";

/**
 * Check `Authorization: <scheme> <key>` (`Bearer`, or fal's `Key`); throws a 401 that never
 * echoes the key sent.
 *
 * @example
 * checkAuthorization(request.headers.authorization, simulator.apiKey, "Bearer");
 */
export function checkAuthorization(
  header: string | undefined,
  apiKey: string,
  scheme = "Bearer",
): void {
  if (!header) {
    throw new HttpError(
      401,
      `You didn't provide an API key. Send it as \`Authorization: ${scheme} <API_KEY>\`.`,
      {
        code: "missing_api_key",
      },
    );
  }
  const match = new RegExp(`^${scheme}\\s+(.+)$`, "i").exec(header.trim());
  if (!match || !sameSecret(match[1] ?? "", apiKey)) {
    throw new HttpError(401, "Incorrect API key provided.", { code: "invalid_api_key" });
  }
}

/**
 * Throws 401 unless the header `name` holds the key itself (ElevenLabs' `xi-api-key`).
 *
 * @example
 * checkKeyHeader(request.headers["xi-api-key"], simulator.apiKey, "xi-api-key");
 */
export function checkKeyHeader(
  value: string | string[] | undefined,
  apiKey: string,
  name: string,
): void {
  const given = Array.isArray(value) ? value[0] : value;
  if (!given) {
    throw new HttpError(401, `You didn't provide an API key. Send it as the \`${name}\` header.`, {
      code: "missing_api_key",
    });
  }
  if (!sameSecret(given.trim(), apiKey)) {
    throw new HttpError(401, "Invalid API key", { code: "invalid_api_key" });
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
