import type { AnyStepKind, ModelCatalogs } from "../../steps/step-kind.js";
import {
  type CheckModel,
  createCheckModel,
  type PipelineProblem,
  type Raw,
} from "./check-model.js";
import { filesPass } from "./files-pass.js";
import { idsPass } from "./ids-pass.js";
import { inputsPass } from "./inputs-pass.js";
import { referencesPass } from "./references-pass.js";
import { stepsPass } from "./steps-pass.js";
import { syntaxPass } from "./syntax-pass.js";
import { typesPass } from "./types-pass.js";

/** The passes, in order; each reads the model and adds its problems. */
const passes: readonly ((model: CheckModel) => void)[] = [
  syntaxPass,
  idsPass,
  inputsPass,
  stepsPass,
  referencesPass,
  filesPass,
  typesPass,
];

/**
 * Checks beyond the schema, as passes over one model of the pipeline (its steps read once,
 * with their kinds and bodies merged over their defaults) that share one expression walker:
 * syntax, ids, inputs, steps (each kind's own checks), references, local files and static
 * types. Works on partially invalid data; a problem inside a value the schema rejected
 * (`invalidPaths`) is left to the schema.
 * @example checkPipeline(data, { kinds, catalogs, invalidPaths: [], baseDir: "/pipelines" })
 */
export function checkPipeline(
  data: Raw,
  options: {
    kinds: ReadonlyMap<string, AnyStepKind>;
    /** The other model catalogs known, by profile section (`image_models`, …). */
    catalogs?: ModelCatalogs | undefined;
    invalidPaths: readonly (string | number)[][];
    /** Directory local files named by the pipeline are relative to (undefined for inline text). */
    baseDir?: string;
  },
): PipelineProblem[] {
  const model = createCheckModel(data, {
    kinds: options.kinds,
    catalogs: options.catalogs,
    baseDir: options.baseDir,
  });
  for (const pass of passes) pass(model);
  const isUnder = (path: readonly (string | number)[], prefix: readonly (string | number)[]) =>
    prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
  return model.problems.filter(
    (problem) => !options.invalidPaths.some((bad) => isUnder(problem.path, bad)),
  );
}

export type { PipelineProblem } from "./check-model.js";
