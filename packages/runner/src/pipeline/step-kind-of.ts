import { stepKindNames } from "../steps/definitions.js";
import type { StepSpec } from "./pipeline-schema.js";

/**
 * The kind of a validated step: "chat", "video" or "ffmpeg".
 *
 * @example
 * ```ts
 * stepKindOf({ id: "a", chat: { prompt: "hi" } }); // "chat"
 * ```
 */
export function stepKindOf(step: StepSpec): string {
  const kind = stepKindNames.find(
    (name) => Object.hasOwn(step, name) && (step as Record<string, unknown>)[name] !== undefined,
  );
  if (!kind)
    throw new TypeError(
      `step \`${step.id}\` has no kind (expected one of ${stepKindNames.join(", ")})`,
    );
  return kind;
}
