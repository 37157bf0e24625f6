import { defineStepKind, loadOnce } from "../define-step-kind.js";
import { checkImageStep } from "./image-check.js";
import { imageFiles, imagePaths, writtenImagePaths } from "./image-files.js";
import { imageOutputType } from "./image-outputs.js";
import { planImage } from "./image-plan.js";
import type { ImageStepSpec } from "./image-schema.js";

/** Its `run` (and request check), loaded on first use. */
const imageStep = loadOnce(() => import("./image-step.js"));

export type { ImageStepSpec } from "./image-schema.js";

/**
 * The `image` step kind: one request that makes `n` images (`/v1/images/generations`, or
 * `/v1/images/edits` with reference images), priced and reserved before it is sent, journaled
 * before and after, saved into the run directory. Its schema and its `run` load on first use.
 *
 * @example
 * ```ts
 * imageKind.plan({ model: "reel-image-1", n: 2 }, { catalogs }); // { requests: { images: 2 }, credits: 8 }
 * ```
 */
export const imageKind = defineStepKind<ImageStepSpec>({
  kind: "image",
  schema: async () => (await import("./image-schema.js")).ImageStepSchema,
  defaultsSchema: async () => (await import("./image-schema.js")).ImageDefaultsSchema,
  // A synchronous request of the account, like a chat: it waits on the account's request queue.
  queue: "chat",
  // A provider account's images count within its `max_concurrent_jobs`, with its clips.
  accountQueue: "jobs",
  outputs: () => imageOutputType,
  outputHints: {
    files:
      "an image step's `files` is a list of paths: read one with `files[0]`, or pass the list as `references`",
  },
  check: checkImageStep,
  files: imageFiles,
  writes: writtenImagePaths,
  models: [{ field: "model", catalog: "image_models" }],
  plan: planImage,
  summary: (spec) =>
    `${spec.model ?? ""}: ${String(spec.prompt ?? "")
      .replace(/\s+/g, " ")
      .slice(0, 60)}`,
  // The same images asked for again are reused wherever this run wants them written.
  cache: {
    ignore: ["output", "outputs"],
    inputFiles: { references: "list" },
    placeFiles: (spec, { stepId, index }) => {
      const n = typeof spec.n === "number" ? spec.n : 1;
      const paths = imagePaths(spec, stepId, index, n);
      return Object.fromEntries([
        ["file", paths[0] as string],
        ...paths.map((path, at): [string, string] => [`files.${at}`, path]),
      ]);
    },
  },
  report: { role: "media", work: "image" },
  checkRequest: async (spec, context) => {
    await (await imageStep()).checkImageRequest(spec, context);
  },
  run: async (spec, context) => (await imageStep()).runImageStep(spec, context),
});
