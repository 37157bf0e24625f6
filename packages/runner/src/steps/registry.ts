import { approveKind } from "./approve/index.js";
import { chatKind } from "./chat/index.js";
import { defineStepKind } from "./define-step-kind.js";
import { ffmpegKind } from "./ffmpeg/index.js";
import { imageKind } from "./image/index.js";
import { speechKind } from "./speech/index.js";
import type { AnyStepKind, HeldJob, StepKindSpec } from "./step-kind.js";
import { videoKind } from "./video/index.js";

/**
 * The step kinds the pipeline format knows, in the order the schema lists them. The one
 * list: adding a kind is its folder and one entry here.
 *
 * @example
 * ```ts
 * builtInStepKinds.map((kind) => kind.kind); // ["chat", "video", "ffmpeg", "approve", "speech", "image"]
 * ```
 */
export const builtInStepKinds: readonly AnyStepKind[] = [
  chatKind,
  videoKind,
  ffmpegKind,
  approveKind,
  speechKind,
  imageKind,
];

/**
 * The kinds a run or a check uses: the built-in ones, or the given ones (each made a complete
 * kind with {@link defineStepKind}), by YAML key.
 * @example kindsByName().get("video")?.queue // "video"
 */
export function kindsByName(
  kinds: readonly (AnyStepKind | StepKindSpec<never>)[] = builtInStepKinds,
): ReadonlyMap<string, AnyStepKind> {
  return new Map(
    kinds.map((kind) => {
      const defined = defineStepKind(kind as StepKindSpec) as AnyStepKind;
      return [defined.kind, defined];
    }),
  );
}

/** True when `names` are exactly the built-in kinds' (in any order). */
export function isBuiltInKindSet(names: readonly string[]): boolean {
  return (
    names.length === builtInStepKinds.length &&
    builtInStepKinds.every((kind) => names.includes(kind.kind))
  );
}

/**
 * The job a unit holds at the service, as the facts it journaled say, asked of every kind
 * (each reads only its own facts): for readers that know a unit's facts but not its kind.
 * @example heldJobOf(item.facts)?.state // "saved"
 */
export function heldJobOf(
  facts: Readonly<Record<string, Record<string, unknown>>>,
  kinds: Iterable<AnyStepKind> = builtInStepKinds,
): HeldJob | undefined {
  for (const kind of kinds) {
    const held = kind.heldJob?.(facts);
    if (held) return held;
  }
  return undefined;
}

/**
 * The kind a step (raw or validated) selects: the one kind key it holds, or undefined when
 * it holds none or several (the schema reports those).
 * @example kindOf({ id: "a", chat: { prompt: "hi" } }, kindsByName())?.kind // "chat"
 */
export function kindOf(
  step: Record<string, unknown>,
  kinds: ReadonlyMap<string, AnyStepKind>,
): AnyStepKind | undefined {
  let found: AnyStepKind | undefined;
  // The step's few keys looked up, not every kind's entry made (this runs for every step).
  for (const name in step) {
    const kind = kinds.get(name);
    if (!kind || !Object.hasOwn(step, name) || step[name] === undefined) continue;
    if (found) return undefined;
    found = kind;
  }
  return found;
}
