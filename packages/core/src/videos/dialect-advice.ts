import { APIError } from "../errors/api-error.js";
import type { VideoDialect } from "./video-dialect.js";

/** Words of a 400/415 answer about the body's encoding (JSON, multipart, content type). */
const ENCODING_WORDS =
  /\b(json|multipart|form-data|form data|content[- ]type|media type|encod(?:ed|ing)|urlencoded)\b/i;

/**
 * A service's refusal of `POST /v1/videos` that points at the other dialect (a 400 or 415
 * about the body's encoding, such as `body must be JSON`) with what to change said in its
 * message and hint: the profile's `service.dialect` and the value to set. Any other error is
 * returned as it is.
 *
 * @example
 * throw withDialectAdvice(error, "openai"); // "400 body must be JSON; … set `dialect: reference` under `service:` …"
 */
export function withDialectAdvice(error: unknown, dialect: VideoDialect): unknown {
  // Only the two dialects of `POST /v1/videos` can be mistaken for each other.
  if (dialect !== "reference" && dialect !== "openai") return error;
  if (!APIError.isInstance(error)) return error;
  if (error.status !== 400 && error.status !== 415) return error;
  if (!ENCODING_WORDS.test(error.message)) return error;
  const other = dialect === "openai" ? "reference" : "openai";
  const sent =
    dialect === "openai" ? "multipart/form-data (dialect openai)" : "JSON (dialect reference)";
  const advice = `the service may speak the other video dialect: this request was sent as ${sent}; set \`dialect: ${other}\` under \`service:\` in the provider profile (reelsmith.config.yaml, --config or REELSMITH_CONFIG)`;
  error.message = `${error.message}; ${advice}`;
  Object.defineProperty(error, "hint", {
    value: `set \`service: { dialect: ${other} }\` in the provider profile`,
    enumerable: true,
    configurable: true,
    writable: false,
  });
  return error;
}
