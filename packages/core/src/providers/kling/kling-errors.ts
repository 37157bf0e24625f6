import { APIError, type APIErrorFields } from "../../errors/api-error.js";
import { AuthenticationError } from "../../errors/authentication-error.js";
import { BadRequestError } from "../../errors/bad-request-error.js";
import { InternalServerError } from "../../errors/internal-server-error.js";
import { NotFoundError } from "../../errors/not-found-error.js";
import { PermissionDeniedError } from "../../errors/permission-denied-error.js";
import { RateLimitError } from "../../errors/rate-limit-error.js";

/**
 * Kling's error answer `{ code, message, request_id }` as core's error classes, by Kling's
 * code rather than the HTTP status (Kling answers an empty balance with 429, which must not
 * be retried): 1000–1004 authentication, 1100–1103 and 1304 the account (balance, resource
 * pack, access, IP allow-list: never retried), 1200–1201 and 1301 a bad request, 1202–1203
 * not found, 1300 and 1302–1303 rate limits (refused before anything was made: retried),
 * 5000 and above the server. Undefined when the body is not Kling's (core's own mapping then).
 *
 * @example
 * ```ts
 * klingError(429, '{"code":1102,"message":"resource pack exhausted"}', "r-1", (t) => t); // PermissionDeniedError
 * ```
 */
export function klingError(
  status: number,
  bodyText: string,
  requestId: string | undefined,
  redact: (text: string) => string,
): APIError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const code = record.code;
  if (typeof code !== "number" || code === 0) return undefined;
  const said = typeof record.message === "string" ? record.message : "no message";
  const message = redact(`${status} Kling error ${code}: ${said}`);
  const id = typeof record.request_id === "string" ? record.request_id : requestId;
  const fields: APIErrorFields = { status, code: String(code), requestId: id };
  if (code >= 1000 && code <= 1004) {
    return new AuthenticationError(message, {
      ...fields,
      hint: "Kling refused the token: check KLING_ACCESS_KEY and KLING_SECRET_KEY (the two variables the profile's api_key_env names) and the machine's clock",
    });
  }
  if ((code >= 1100 && code <= 1103) || code === 1304) {
    return new PermissionDeniedError(message, {
      ...fields,
      hint:
        code === 1304
          ? "the account's IP allow-list refuses this machine: add its address in Kling's console"
          : "the Kling account cannot pay for this (balance, resource pack or access): see Kling's console",
    });
  }
  if (code === 1202 || code === 1203) return new NotFoundError(message, fields);
  if ((code >= 1200 && code < 1300) || code === 1301) return new BadRequestError(message, fields);
  if (code >= 1300 && code < 1400) return new RateLimitError(message, fields);
  if (code >= 5000) return new InternalServerError(message, fields);
  return new APIError(message, { ...fields, isRetryable: false });
}
