import { mergeFields } from "../../expressions/convert.js";
import { kindOf } from "../../steps/registry.js";
import type { AnyStepKind, ModelCatalogs } from "../../steps/step-kind.js";

/** A problem found beyond the schema, located by document path. */
export interface PipelineProblem {
  path: (string | number)[];
  atKey?: boolean;
  /** When the problem is inside a string: which `${{` (0-based) it concerns. */
  expressionIndex?: number;
  /**
   * Inside that expression, the text to point at (e.g. `steps.clipz`) and how far into it the
   * name starts (6, at `clipz`); without it, or when it is not found, the `${{` is pointed at.
   */
  needle?: { text: string; at: number };
  message: string;
  severity: "error" | "warning";
  code: string;
  hint?: string;
}

export type Raw = Record<string, unknown>;

export const isObject = (value: unknown): value is Raw =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** One step as every pass sees it. */
export interface CheckedStep {
  index: number;
  raw: Raw;
  /** Its id, when it has a string one. */
  id: string | undefined;
  /** True for the first step with this id (a later one is a duplicate). */
  first: boolean;
  kind: AnyStepKind | undefined;
  /** The kind's body as written, and merged over `defaults.<kind>`. */
  body: Raw | undefined;
  merged: Raw | undefined;
  fanOut: boolean;
}

/** What the passes share: the data, the kinds, the steps read once, and the problems. */
export interface CheckModel {
  data: Raw;
  kinds: ReadonlyMap<string, AnyStepKind>;
  steps: CheckedStep[];
  /** The first step of each id. */
  byId: Map<string, CheckedStep>;
  defaults: Record<string, Raw>;
  inputs: Raw;
  /** The model catalogs known, by profile section (`video_models`, `image_models`, …). */
  catalogs?: ModelCatalogs;
  /** Directory local files are relative to (undefined for inline text: files not checked). */
  baseDir: string | undefined;
  problems: PipelineProblem[];
}

/** Reads the pipeline's steps once, with their kinds and bodies, for every pass. */
export function createCheckModel(
  data: Raw,
  options: {
    kinds: ReadonlyMap<string, AnyStepKind>;
    catalogs?: ModelCatalogs | undefined;
    baseDir: string | undefined;
  },
): CheckModel {
  const defaults = (isObject(data.defaults) ? data.defaults : {}) as Record<string, Raw>;
  const byId = new Map<string, CheckedStep>();
  const steps = (Array.isArray(data.steps) ? data.steps : []).flatMap(
    (raw, index): CheckedStep[] => {
      if (!isObject(raw)) return [];
      const kind = kindOf(raw, options.kinds);
      const body = kind && isObject(raw[kind.kind]) ? (raw[kind.kind] as Raw) : undefined;
      const kindDefaults = kind && isObject(defaults[kind.kind]) ? defaults[kind.kind] : {};
      const id = typeof raw.id === "string" ? raw.id : undefined;
      const step: CheckedStep = {
        index,
        raw,
        id,
        first: id !== undefined && !byId.has(id),
        kind,
        body,
        merged: body ? mergeFields(kindDefaults, body) : undefined,
        fanOut: raw.for_each !== undefined,
      };
      if (id !== undefined && step.first) byId.set(id, step);
      return [step];
    },
  );
  return {
    data,
    kinds: options.kinds,
    steps,
    byId,
    defaults,
    inputs: isObject(data.inputs) ? data.inputs : {},
    ...(options.catalogs ? { catalogs: options.catalogs } : {}),
    baseDir: options.baseDir,
    problems: [],
  };
}

/**
 * Where a problem at `path` inside a step's (merged) body is shown: in the step's own body
 * when the step sets the field, else in `defaults.<kind>` when the default sets it.
 */
export function bodyPath(
  step: CheckedStep,
  path: readonly (string | number)[],
  defaults: Record<string, Raw>,
): (string | number)[] {
  const kind = step.kind?.kind ?? "";
  const head = path[0];
  const own = ["steps", step.index, kind];
  if (head === undefined || (step.body && Object.hasOwn(step.body, head))) return [...own, ...path];
  const kindDefaults = defaults[kind];
  if (isObject(kindDefaults) && Object.hasOwn(kindDefaults, head))
    return ["defaults", kind, ...path];
  return [...own, ...path];
}
