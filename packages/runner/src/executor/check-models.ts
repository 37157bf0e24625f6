import { dirname, isAbsolute, resolve } from "node:path";
import { MissingConfigurationError } from "@reelsmith/core/errors";
import { type ListedModel, listedModels } from "@reelsmith/core/profile";
import { modelNoun, UnknownModelError } from "../errors/unknown-model-error.js";
import { judgeModelUses } from "../pipeline/check/model-names.js";
import { type ModelUse, modelUsesOf } from "../pipeline/check/model-uses.js";
import { type LoadedPipeline, parsePipeline } from "../pipeline/load-pipeline.js";
import { subPipelineReferences } from "../pipeline/sub-pipelines.js";
import type { AnyStepKind, ModelCatalogs } from "../steps/step-kind.js";

/** A model a pipeline or one of its sub-pipelines names, with the file that names it. */
type FiledUse = ModelUse & {
  file: string;
  position(): { line: number; column: number };
};

/**
 * Models of a pipeline file (given inputs and input defaults included) and, recursively, the
 * literal ones and input defaults of the sub-pipeline files its tools name.
 */
async function modelUsesOfTree(
  pipeline: LoadedPipeline,
  kinds: ReadonlyMap<string, AnyStepKind>,
  inputs: Readonly<Record<string, unknown>> | undefined,
): Promise<FiledUse[]> {
  const positionOf = (path: (string | number)[]) =>
    typeof pipeline.positionOf === "function" ? pipeline.positionOf(path) : { line: 1, column: 1 };
  const uses: FiledUse[] = modelUsesOf(pipeline.spec, kinds, inputs).map((use) => ({
    ...use,
    file: pipeline.path,
    position: () => positionOf(use.path),
  }));
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
        uses.push(
          ...modelUsesOf(parsed.data, kinds).map((use) => ({
            ...use,
            file,
            position: () => parsed.sourceMap.position(use.path),
          })),
        );
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
    list?: (options?: { signal?: AbortSignal }) => Promise<ListedModel[]>;
  };
}

/** How a check of the models is told what to check with. */
export interface CheckModelsOptions {
  /** The step kinds of the run (their `models` say which fields name a model of which catalog). */
  kinds: ReadonlyMap<string, AnyStepKind>;
  /** The run's inputs: a model field that is one input is checked with its value. */
  inputs?: Readonly<Record<string, unknown>> | undefined;
  signal?: AbortSignal | undefined;
  /** Told once per model a run may use whose limits and price are unknown. */
  warn?: (message: string) => void;
  /**
   * Reads the service's list instead of `client.models.list` (a list this process read a
   * moment ago: `learnedModels`); a failure reads as no list, as the client's does.
   */
  listModels?: (() => Promise<ListedModel[]>) | undefined;
}

/**
 * Before the first paid request: every model the pipeline and its sub-pipelines name (chat,
 * video, image, speech, transcription: each kind's `models` fields, input values and
 * defaults included) must be one the service offers, in the catalog its kind declares. One
 * `GET /v1/models` (free), judged by the one model check (`judgeModelUses`) with the given
 * catalogs (a provider profile, the built-in simulator's). A model of a section whose models
 * carry limits (`video_models`) listed without them may be used with its limits and price
 * unknown: `warn` is told so once per model. Throws UnknownModelError listing each unknown
 * model with its file:line:column and the closest known one, the models of each catalog the
 * kinds declare, and what the kind advises. A service without a usable model list is checked
 * against the given catalogs only. Returns the catalogs a run may use: the given ones, with
 * the models the service lists with their limits, then the listed ones of unknown limits the
 * pipeline names.
 *
 * @example
 * await checkModels(pipeline, client, catalogs, { kinds, inputs, signal, warn: (message) => console.warn(message) });
 */
export async function checkModels(
  pipeline: LoadedPipeline,
  client: unknown,
  catalogs: ModelCatalogs | undefined,
  options: CheckModelsOptions,
): Promise<ModelCatalogs | undefined> {
  const { signal } = options;
  const uses = await modelUsesOfTree(pipeline, options.kinds, options.inputs);
  // A model the profile routes to another provider account is not in this service's list:
  // it is judged by the profile's catalogs alone.
  const accountOf = (client as { accountOf?: (model: string) => string | undefined } | undefined)
    ?.accountOf;
  const routed = (use: FiledUse) => accountOf?.(use.model) !== undefined;
  const list = (client as ModelsClient | undefined)?.models?.list;
  let models: ListedModel[] = [];
  if (typeof list === "function") {
    try {
      models = options.listModels
        ? await options.listModels()
        : await list.call((client as ModelsClient).models, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) throw error;
      // No service at all (no base URL, given or in the environment): every request to it
      // would fail the same way after the run directory was made. Refused now instead.
      if (MissingConfigurationError.isInstance(error) && uses.some((use) => !routed(use)))
        throw error;
    }
  }
  const judged = judgeModelUses(
    uses.filter((use) => !routed(use)),
    { catalogs, ...(models.length > 0 ? { listed: listedModels(models) } : {}) },
    options.kinds,
  );
  const elsewhere = uses.filter(routed);
  const unknown = [
    ...judged.unknown,
    ...(elsewhere.length > 0 ? judgeModelUses(elsewhere, { catalogs }, options.kinds).unknown : []),
  ];
  if (unknown.length > 0) {
    const advised = unknown.find((use) => use.declared.advice);
    throw new UnknownModelError(
      unknown.map((use) => ({
        catalog: use.catalog,
        model: use.model,
        file: use.file,
        ...use.position(),
        ...(use.near ? { near: use.near } : {}),
        ...(use.from ? { from: use.from } : {}),
      })),
      judged.known,
      advised?.declared.advice?.(advised.model),
    );
  }
  let merged = judged.catalogs;
  const unpriced = new Map<string, { section: string; typed: boolean }>();
  for (const { use, typed } of judged.unpriced)
    unpriced.set(use.model, { section: use.catalog, typed });
  for (const [id, { section, typed }] of unpriced) {
    options.warn?.(
      `${modelNoun(section)} \`${id}\` is listed by the service ${typed ? "without its limits" : "without a type"}: its limits and price are unknown, so its requests are not checked before sending and it has no estimate (declare it under ${section}: in a provider profile)`,
    );
    merged = { ...merged, [section]: [...(merged?.[section] ?? []), { id }] };
  }
  return merged;
}
