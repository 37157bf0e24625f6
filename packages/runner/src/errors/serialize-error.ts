import type { SerializedError } from "../events/run-event.js";

/**
 * Turns any thrown value into plain JSON data for events, the journal and results.
 * Uses the error's own `toJSON()` when it has one (core's and the runner's errors do).
 * @example serializeError(new Error("x")) // { name: "Error", message: "x" }
 */
export function serializeError(error: unknown): SerializedError {
  if (error && typeof error === "object") {
    const withJson = error as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === "function") {
      const json = withJson.toJSON();
      if (json && typeof json === "object") {
        const data = json as Record<string, unknown>;
        return {
          ...data,
          name: String(data.name ?? (error as Error).name ?? "Error"),
          message: String(data.message ?? (error as Error).message ?? ""),
        };
      }
    }
    const e = error as Error & { code?: unknown };
    return {
      name: e.name ?? "Error",
      message: e.message ?? String(error),
      ...(typeof e.code === "string" ? { code: e.code } : {}),
    };
  }
  return { name: "Error", message: String(error) };
}
