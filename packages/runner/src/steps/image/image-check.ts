import { chargeInUnit } from "@reelsmith/core/catalog";
import type { ImageModelSpec } from "@reelsmith/core/profile";
import { outputPathProblem } from "../../pipeline/output-path.js";
import type { CheckContext } from "../step-kind.js";
import { imageModelsOf } from "./image-models.js";
import type { ImageStepSpec } from "./image-schema.js";

/**
 * Static checks of an image step: a model is set; a literal model is one the catalog knows
 * (else "did you mean"), and its literal `size`, `n` and number of `references` are within
 * what that model takes; the output paths stay in the run directory, are PNGs, and `outputs`
 * names as many images as `n`.
 *
 * @example
 * ```ts
 * checkImageStep({ model: "reel-image-1", prompt: "x", size: "640x480" }, context); // reports ["size"]
 * ```
 */
export function checkImageStep(spec: ImageStepSpec, context: CheckContext): void {
  checkPaths(spec, context);
  if (spec.model === undefined) {
    context.report([], "no image model: set `model` here or `defaults.image.model`", {
      code: "image_no_model",
    });
    return;
  }
  const catalog = context.isLiteral(spec.model) ? imageModelsOf(context.catalogs) : undefined;
  if (!catalog) return;
  const model = catalog.find((entry) => entry.id === spec.model);
  // An unknown model is the model check's (judgeModelUses): its limits are not checked here.
  if (!model) return;
  checkLimits(spec, model, context);
}

function checkLimits(spec: ImageStepSpec, model: ImageModelSpec, context: CheckContext): void {
  const { size, n, references } = spec;
  if (
    typeof size === "string" &&
    context.isLiteral(size) &&
    size !== "auto" &&
    model.sizes &&
    !model.sizes.includes(size)
  ) {
    context.report(["size"], `${model.id} does not draw ${size}`, {
      code: "image_size_unsupported",
      hint: `${model.id} draws ${model.sizes.join(", ")}`,
    });
  }
  if (typeof n === "number" && model.maxImages !== undefined && n > model.maxImages) {
    context.report(
      ["n"],
      `${model.id} makes at most ${model.maxImages} images per request; n is ${n}`,
      {
        code: "image_n_over_max",
        hint: "split the images over several steps, or a fan-out",
      },
    );
  }
  if (Array.isArray(references) && model.maxReferences !== undefined) {
    // An item that is an expression may give several files: only literal counts are certain.
    const literal = references.every((reference) => context.isLiteral(reference));
    if (literal && references.length > model.maxReferences) {
      context.report(
        ["references", model.maxReferences],
        `${model.id} takes at most ${model.maxReferences} reference images; ${references.length} are given`,
        { code: "image_too_many_references" },
      );
    }
  }
}

function checkPaths(spec: ImageStepSpec, context: CheckContext): void {
  const paths: [readonly (string | number)[], string][] = [];
  if (spec.output !== undefined) paths.push([["output"], spec.output]);
  spec.outputs?.forEach((path, at) => {
    paths.push([["outputs", at], path]);
  });
  for (const [at, path] of paths) {
    const problem = outputPathProblem(path);
    if (problem) context.report(at, problem, { code: "output_path_escapes" });
    else if (!/\}\}\s*$/.test(path) && !/\.png$/i.test(path))
      context.report(at, "images are saved as PNG: use a .png path", {
        code: "image_output_extension",
      });
  }
  if (spec.output !== undefined && spec.outputs !== undefined) {
    context.report(["outputs"], "give `output` or `outputs`, not both", {
      code: "image_output_twice",
    });
  }
  if (spec.outputs !== undefined && typeof spec.n === "number" && spec.outputs.length !== spec.n) {
    context.report(
      ["outputs"],
      `\`outputs\` names ${spec.outputs.length} file${spec.outputs.length === 1 ? "" : "s"} for ${spec.n} image${spec.n === 1 ? "" : "s"}`,
      { code: "image_outputs_count" },
    );
  }
}

/**
 * What one image request is expected to cost: the model's price × n, when both are known; in
 * whole credits (rounded up), or exactly when `unit` names the price's own unit (usd, …).
 * @example expectedImageCredits({ id: "img", price: { perImage: 4 } }, 2) // 8
 * @example expectedImageCredits({ id: "flux", price: { perImage: 0.05 } }, 1, "usd") // 0.05
 */
export function expectedImageCredits(
  model: ImageModelSpec | undefined,
  n: number,
  unit?: string,
): number | undefined {
  // As core's estimateImageCredits prices it (not imported: validating must not load the
  // profile's schema module).
  return model?.price && Number.isInteger(n) && n >= 1
    ? chargeInUnit(model.price.perImage * n, unit)
    : undefined;
}
