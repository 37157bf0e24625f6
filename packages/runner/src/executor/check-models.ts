import { dirname, isAbsolute, resolve } from "node:path";
import { modelKind } from "@reelsmith/core/catalog";
import { validateProfile, videoCatalogFromProfile } from "@reelsmith/core/profile";
import { UnknownModelError, type UnknownModelUse } from "../errors/unknown-model-error.js";
import { bodyPath, createCheckModel, isObject } from "../pipeline/check/check-model.js";
import type { VideoModelCatalog } from "../pipeline/core-shim.js";
import { type LoadedPipeline, parsePipeline } from "../pipeline/load-pipeline.js";
import { subPipelineReferences } from "../pipeline/sub-pipelines.js";
import { kindsByName } from "../steps/registry.js";

/**
 * A model a pipeline names literally, and which of the service's lists holds it; where it
 * is named is worked out only for an unknown one (a position needs the YAML's source map).
 */
type ModelUse = Omit<UnknownModelUse, "line" | "column"> & {
  position(): { line: number; column: number };
};

/** Literal models of a pipeline's steps (as their kinds say: `models`), defaults merged. */
function modelUses(
  data: unknown,
  file: string,
  positionOf: (path: (string | number)[]) => { line: number; column: number },
): ModelUse[] {
  if (!isObject(data)) return [];
  const model = createCheckModel(data, {
    kinds: kindsByName(),
    videoModels: undefined,
    baseDir: undefined,
  });
  const uses: ModelUse[] = [];
  for (const step of model.steps) {
    for (const { field, service } of step.kind?.models ?? []) {
      const value = step.merged?.[field];
      if (typeof value !== "string" || value.includes("${{")) continue;
      const path = bodyPath(step, [field], model.defaults);
      uses.push({ kind: service, model: value, file, position: () => positionOf(path) });
    }
  }
  return uses;
}

/** Models of a pipeline file and, recursively, of the sub-pipeline files its tools name. */
async function modelUsesOfTree(pipeline: LoadedPipeline): Promise<ModelUse[]> {
  const uses = modelUses(pipeline.spec, pipeline.path, (path) =>
    typeof pipeline.positionOf === "function" ? pipeline.positionOf(path) : { line: 1, column: 1 },
  );
  if (pipeline.path === "<inline>") return uses;
  const seen = new Set([pipeline.path]);
  const queue: { data: unknown; path: string }[] = [{ data: pipeline.spec, path: pipeline.path }];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current) break;
    for (const reference of subPipelineReferences(current.data)) {
      const file = isAbsolute(reference.value)
        ? reference.value
        : resolve(dirname(current.path), reference.value);
      if (seen.has(file)) continue;
      seen.add(file);
      try {
        const parsed = await parsePipeline(file);
        uses.push(...modelUses(parsed.data, file, (path) => parsed.sourceMap.position(path)));
        queue.push({ data: parsed.data, path: file });
      } catch {
        // validation refuses an unreadable sub-pipeline before this point
      }
    }
  }
  return uses;
}

/** The bits of a client this check uses. */
interface ModelsClient {
  models?: {
    list?: (options?: {
      signal?: AbortSignal;
    }) => Promise<{ id: string; [key: string]: unknown }[]>;
  };
}

/**
 * The video models a service lists with their limits (`type: "video"` entries whose `video`
 * metadata is written as a profile writes a video model); entries that do not read as one are
 * skipped.
 * @example videoModelsListed([{ id: "veo-3", type: "video", video: { seconds: [4, 8] } }]);
 */
export function videoModelsListed(models: readonly { id: string; [key: string]: unknown }[]) {
  const entries = models.filter(
    (model) =>
      model.type === "video" &&
      isObject(model.video) &&
      validateProfile({ video_models: { [model.id]: model.video } }).length === 0,
  );
  return videoCatalogFromProfile({
    video_models: Object.fromEntries(entries.map((model) => [model.id, model.video as object])),
  });
}

/**
 * Before the first paid request: every model the pipeline and its sub-pipelines name
 * literally must be one the service offers. One `GET /v1/models` (free); chat models must be
 * in its list, video models in the given catalog (a provider profile, the built-in
 * simulator's) or listed: with their limits (`type: "video"` and metadata), or with a kind
 * unknown (an aggregator lists every id untyped), which a video step may use with its limits
 * and price unknown: `warn` is told so once per model. Throws UnknownModelError listing each
 * unknown model with its file:line:column, the known models and how to declare one. A service
 * without a usable model list is not checked (the first request then answers for itself).
 * Returns the video models a run may use: the given catalog, then those the service lists
 * with their limits, then the listed ones of unknown limits the pipeline names as video.
 *
 * @example
 * await checkModels(pipeline, client, catalog, signal, (message) => console.warn(message));
 */
export async function checkModels(
  pipeline: LoadedPipeline,
  client: unknown,
  videoModels: VideoModelCatalog | undefined,
  signal?: AbortSignal,
  warn?: (message: string) => void,
): Promise<VideoModelCatalog | undefined> {
  const uses = await modelUsesOfTree(pipeline);
  const list = (client as ModelsClient | undefined)?.models?.list;
  if (typeof list !== "function") return videoModels;
  let models: { id: string; [key: string]: unknown }[];
  try {
    models = await list.call((client as ModelsClient).models, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    return videoModels;
  }
  const given = videoModels ?? [];
  const listedVideo = videoModelsListed(models).filter(
    (model) => !given.some((known) => known.id === model.id),
  );
  let catalog: VideoModelCatalog = [...given, ...listedVideo];
  if (models.length === 0 || uses.length === 0) return catalog.length > 0 ? catalog : videoModels;
  const listed = models.map((model) => model.id);
  const typedVideo = models.filter((model) => modelKind(model) === "video").map((m) => m.id);
  // Listed, but nothing says what it is or what it accepts: usable as either kind.
  const kindUnknown = models
    .filter((model) => modelKind(model) === "unknown")
    .map((model) => model.id);
  const limitsUnknown = [...typedVideo, ...kindUnknown].filter(
    (id) => !catalog.some((model) => model.id === id),
  );
  const videoIds = catalog.map((model) => model.id);
  const unknown = uses.filter((use) =>
    use.kind === "chat"
      ? !listed.includes(use.model) ||
        videoIds.includes(use.model) ||
        typedVideo.includes(use.model)
      : !videoIds.includes(use.model) && !limitsUnknown.includes(use.model),
  );
  if (unknown.length > 0) {
    const chat = listed.filter((id) => !videoIds.includes(id) && !typedVideo.includes(id));
    throw new UnknownModelError(
      unknown.map(({ position, ...use }) => ({ ...use, ...position() })),
      chat,
      [...videoIds, ...limitsUnknown],
    );
  }
  const usedUnknown = [
    ...new Set(
      uses
        .filter((use) => use.kind === "video" && limitsUnknown.includes(use.model))
        .map((use) => use.model),
    ),
  ];
  for (const id of usedUnknown) {
    warn?.(
      `video model \`${id}\` is listed by the service ${typedVideo.includes(id) ? "without its limits" : "without a type"}: its limits and price are unknown, so its requests are not checked before sending and it has no estimate (declare it under video_models: in a provider profile)`,
    );
  }
  if (usedUnknown.length > 0) catalog = [...catalog, ...usedUnknown.map((id) => ({ id }))];
  return catalog;
}
