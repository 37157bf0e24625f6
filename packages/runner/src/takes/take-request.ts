/** A plain object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A unit's request with a take's changes: each changed field replaces the step's, except an
 * object over an object (`params`), which is merged field by field (a new seed keeps the
 * step's other params).
 * @example withTakeRequest({ prompt: "a fox", params: { seed: 1, style: "ink" } }, { prompt: "a wolf", params: { seed: 7 } })
 * // { prompt: "a wolf", params: { seed: 7, style: "ink" } }
 */
export function withTakeRequest(
  spec: Record<string, unknown>,
  request: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!request || Object.keys(request).length === 0) return spec;
  const changed: Record<string, unknown> = { ...spec };
  for (const [field, value] of Object.entries(request)) {
    const before = spec[field];
    Object.defineProperty(changed, field, {
      value: isRecord(before) && isRecord(value) ? { ...before, ...value } : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return changed;
}

/**
 * The prompt of a request, when it has one.
 * @example promptOf({ prompt: "a fox" }) // "a fox"
 */
export function promptOf(request: Record<string, unknown> | undefined): string | undefined {
  return typeof request?.prompt === "string" ? request.prompt : undefined;
}
