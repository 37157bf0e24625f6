import { HttpError } from "../errors/http-error.js";

/**
 * What the model fills at most, for one answer. Above any of them the request is refused with
 * a 400 naming the limit; the model never answers less than a schema or a prompt asks for.
 * A 10,000-scene storyboard (a feature film at a scene every few seconds) fits many times.
 */
export const fillLimits = {
  /** Items of one array. */
  items: 100_000,
  /** Characters of one string (`minLength`). */
  stringLength: 1_000_000,
  /** Values in the whole answer (objects, arrays, strings, numbers…). */
  values: 1_000_000,
  /** Characters of all the answer's strings together. */
  characters: 50_000_000,
  /** Levels of nesting (a required property that refers back to its own schema never ends). */
  depth: 64,
  /** Steps of one `$ref` chain. */
  references: 32,
} as const;

const number = (value: number) => value.toLocaleString("en-US");

/**
 * The 400 a request gets when its answer would break one of {@link fillLimits}: an OpenAI-style
 * `invalid_request_error` with code `schema_limit_exceeded`, naming what was asked, where, and
 * the limit.
 *
 * @example
 * throw fillLimitError({ asked: "at least 200,000 items", at: "scenes", limit: "items", param: "response_format" });
 */
export function fillLimitError(options: {
  asked: string;
  at: string;
  limit: keyof typeof fillLimits;
  param: string;
}): HttpError {
  const { asked, at, limit, param } = options;
  const where = at ? ` at \`${at}\`` : "";
  const most = number(fillLimits[limit]);
  const limits: Record<keyof typeof fillLimits, string> = {
    items: `the simulator answers at most ${most} items per array`,
    stringLength: `the simulator writes at most ${most} characters per string`,
    values: `the simulator fills at most ${most} values per answer`,
    characters: `the simulator writes at most ${most} characters of text per answer`,
    depth: `the simulator fills at most ${most} levels of nesting (does a required property or minItems refer back to its own schema?)`,
    references: `the simulator follows at most ${most} $ref steps (do two references point at each other?)`,
  };
  return HttpError.badRequest(
    `The request asks for ${asked}${where}; ${limits[limit]}. Ask for less, or split the request.`,
    param,
    "schema_limit_exceeded",
  );
}

/** Thousands separated, as the limit messages write numbers. */
export const formatCount = number;
