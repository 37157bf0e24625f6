import { APIError, type APIErrorFields } from "../errors/api-error.js";
import { AuthenticationError } from "../errors/authentication-error.js";
import { BadRequestError } from "../errors/bad-request-error.js";
import { ConflictError } from "../errors/conflict-error.js";
import { InternalServerError } from "../errors/internal-server-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import { PermissionDeniedError } from "../errors/permission-denied-error.js";
import { RateLimitError } from "../errors/rate-limit-error.js";
import { UnprocessableEntityError } from "../errors/unprocessable-entity-error.js";
import { isRetryableStatus } from "./retry-policy.js";

/**
 * Reads `{ error: { message, type, param, code } }` (or a bare message) from an error body,
 * and the `{ detail }` of FastAPI services such as fal: a string, or a list of
 * `{ loc, msg, type }` (its first entry's field as `param`, its type as `code`), or an object
 * `{ status, message }` (its status as `code`).
 */
export function parseErrorBody(text: string): {
  message?: string;
  type?: string;
  param?: string;
  code?: string;
} {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const trimmed = text.trim().slice(0, 500);
    return trimmed === "" ? {} : { message: trimmed };
  }
  if (body && typeof body === "object" && "detail" in body && !("error" in body)) {
    return detailOf((body as { detail: unknown }).detail);
  }
  const inner =
    body && typeof body === "object" && "error" in body ? (body as { error: unknown }).error : body;
  if (typeof inner === "string") return { message: inner };
  if (!inner || typeof inner !== "object") return {};
  const record = inner as Record<string, unknown>;
  const asString = (value: unknown) =>
    typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
  const result: { message?: string; type?: string; param?: string; code?: string } = {};
  const message = asString(record.message);
  if (message !== undefined) result.message = message;
  const type = asString(record.type);
  if (type !== undefined) result.type = type;
  const param = asString(record.param);
  if (param !== undefined) result.param = param;
  const code = asString(record.code);
  if (code !== undefined) result.code = code;
  return result;
}

/** The APIError subclass for an HTTP status, with the body's fields. */
export function errorFromResponse(
  status: number,
  bodyText: string,
  requestId: string | undefined,
  redact: (text: string) => string,
): APIError {
  const parsed = parseErrorBody(bodyText);
  const message = redact(`${status} ${parsed.message ?? "status code (no body)"}`);
  const fields: APIErrorFields = {
    status,
    type: parsed.type === undefined ? undefined : redact(parsed.type),
    param: parsed.param === undefined ? undefined : redact(parsed.param),
    requestId,
  };
  if (parsed.code !== undefined) fields.code = redact(parsed.code);
  switch (status) {
    case 400:
      return new BadRequestError(message, fields);
    case 401:
      return new AuthenticationError(message, fields);
    case 403:
      return new PermissionDeniedError(message, fields);
    case 404:
      return new NotFoundError(message, fields);
    case 409:
      return new ConflictError(message, fields);
    case 422:
      return new UnprocessableEntityError(message, fields);
    case 429:
      return new RateLimitError(message, fields);
    default:
      if (status >= 500) return new InternalServerError(message, fields);
      return new APIError(message, { ...fields, isRetryable: isRetryableStatus(status) });
  }
}

function detailOf(detail: unknown): { message?: string; param?: string; code?: string } {
  if (typeof detail === "string") return { message: detail };
  if (detail && typeof detail === "object" && !Array.isArray(detail)) {
    // `{ detail: { status, message } }` (ElevenLabs' shape): the status is the error's code.
    const { status, message } = detail as { status?: unknown; message?: unknown };
    return {
      ...(typeof message === "string" ? { message } : {}),
      ...(typeof status === "string" ? { code: status } : {}),
    };
  }
  if (!Array.isArray(detail)) return {};
  const entries = detail.filter(
    (entry): entry is { loc?: unknown; msg?: unknown; type?: unknown } =>
      typeof entry === "object" && entry !== null,
  );
  const field = (entry: { loc?: unknown }) =>
    Array.isArray(entry.loc) ? entry.loc.filter((part) => part !== "body").join(".") : "";
  const message = entries
    .map((entry) => {
      const where = field(entry);
      return `${where ? `${where}: ` : ""}${typeof entry.msg === "string" ? entry.msg : "invalid"}`;
    })
    .join("; ");
  const first = entries[0];
  const result: { message?: string; param?: string; code?: string } = {};
  if (message !== "") result.message = message;
  if (first && field(first) !== "") result.param = field(first);
  if (first && typeof first.type === "string") result.code = first.type;
  return result;
}
