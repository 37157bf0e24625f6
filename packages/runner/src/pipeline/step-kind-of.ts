import { stepKindNames } from "../steps/definitions.js";
import { commonStepProperties, type StepSpec } from "./pipeline-schema.js";

const commonFields = new Set(Object.keys(commonStepProperties));

/**
 * The kind of a validated step: "chat", "video", "ffmpeg", or a custom kind's key (the one
 * field that is not a common step field).
 *
 * @example
 * ```ts
 * stepKindOf({ id: "a", chat: { prompt: "hi" } }); // "chat"
 * ```
 */
export function stepKindOf(step: StepSpec): string {
  const record = step as Record<string, unknown>;
  const present = (name: string) => Object.hasOwn(record, name) && record[name] !== undefined;
  const kind =
    stepKindNames.find(present) ??
    Object.keys(record).find((key) => !commonFields.has(key) && present(key));
  if (!kind) {
    throw new TypeError(
      `step \`${step.id}\` has no kind (expected one of ${stepKindNames.join(", ")})`,
    );
  }
  return kind;
}
