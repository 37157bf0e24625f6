import { dirname, isAbsolute, resolve } from "node:path";
import { type ListedModel, listedModels } from "@reelsmith/core/profile";
import {
  type KnownCatalog,
  modelNoun,
  UnknownModelError,
  type UnknownModelUse,
} from "../errors/unknown-model-error.js";
import { bodyPath, createCheckModel, isObject } from "../pipeline/check/check-model.js";
import { type LoadedPipeline, parsePipeline } from "../pipeline/load-pipeline.js";
import { closest } from "../pipeline/schema-errors.js";
import { subPipelineReferences } from "../pipeline/sub-pipelines.js";
import type { AnyStepKind, ModelCatalogs, ModelField } from "../steps/step-kind.js";

/**
 * A model a pipeline names literally, and which of the service's lists holds it; where it
 * is named is worked out only for an unknown one (a position needs the YAML's source map).
 */
type ModelUse = Omit<UnknownModelUse, "line" | "column"> & {
  position(): { line: number; column: number };
  declared: ModelField;
};

/** Literal models of a pipeline's steps (as their kinds say: `models`), defaults merged. */
function modelUses(
  data: unknown,
  file: string,
  positionOf: (path: (string | number)[]) => { line: number; column: number },
  kinds: ReadonlyMap<string, AnyStepKind>,
): ModelUse[] {
  if (!isObject(data)) return [];
  const model = createCheckModel(data, { kinds, baseDir: undefined });
  const uses: ModelUse[] = [];
  for (const step of model.steps) {
    for (const declared of step.kind?.models ?? []) {
      const value = step.merged?.[declared.field];
      if (typeof value !== "string" || value.includes("${{")) continue;
      const path = bodyPath(step, [declared.field], model.defaults);
      uses.push({
        catalog: declared.catalog,
        model: value,
        file,
        position: () => positionOf(path),
        declared,
      });
    }
  }
  return uses;
}

/** Models of a pipeline file and, recursively, of the sub-pipeline files its tools name. */
async function modelUsesOfTree(
  pipeline: LoadedPipeline,
  kinds: ReadonlyMap<string, AnyStepKind>,
): Promise<ModelUse[]> {
  const uses = modelUses(
    pipeline.spec,
    pipeline.path,
    (path) =>
      typeof pipeline.positionOf === "function"
        ? pipeline.positionOf(path)
        : { line: 1, column: 1 },
    kinds,
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
        uses.push(
          ...modelUses(parsed.data, file, (path) => parsed.sourceMap.position(path), kinds),
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
  signal?: AbortSignal | undefined;
  /** Told once per model a run may use whose limits and price are unknown. */
  warn?: (message: string) => void;
}

/**
 * Before the first paid request: every model the pipeline and its sub-pipelines name
 * literally must be one the service offers, in the catalog its kind declares
 * (`ModelField.catalog`). One `GET /v1/models` (free), read as a provider profile's sections
 * (`listedModels`): a model is known when the given catalogs (a provider profile, the built-in
 * simulator's) hold it, or the service lists it under its section, or untyped (an aggregator
 * lists every id untyped) and held by no other catalog. A model of a section whose models
 * carry limits (`video_models`) listed without them may be used with its limits and price
 * unknown: `warn` is told so once per model. Throws UnknownModelError listing each unknown
 * model with its file:line:column and the closest known one, the models of each catalog the
 * kinds declare, and what the kind advises. A service without a usable model list is not
 * checked (the first request then answers for itself). Returns the catalogs a run may use:
 * the given ones, with the models the service lists with their limits, then the listed ones
 * of unknown limits the pipeline names.
 *
 * @example
 * await checkModels(pipeline, client, catalogs, { kinds, signal, warn: (message) => console.warn(message) });
 */
export async function checkModels(
  pipeline: LoadedPipeline,
  client: unknown,
  catalogs: ModelCatalogs | undefined,
  options: CheckModelsOptions,
): Promise<ModelCatalogs | undefined> {
  const { signal } = options;
  const uses = await modelUsesOfTree(pipeline, options.kinds);
  const list = (client as ModelsClient | undefined)?.models?.list;
  if (typeof list !== "function") return catalogs;
  let models: ListedModel[];
  try {
    models = await list.call((client as ModelsClient).models, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    return catalogs;
  }
  const listed = listedModels(models);
  const merged: Record<string, readonly { id: string }[]> = { ...catalogs };
  let changed = false;
  for (const [section, entries] of Object.entries(listed.described)) {
    const given = merged[section] ?? [];
    const more = entries.filter((entry) => !given.some((known) => known.id === entry.id));
    if (more.length > 0) merged[section] = [...given, ...more];
    changed ||= more.length > 0;
  }
  const holds = (section: string, id: string) =>
    merged[section]?.some((entry) => entry.id === id) === true;
  const heldElsewhere = (section: string, id: string) =>
    Object.keys(merged).some((other) => other !== section && holds(other, id));
  /** How a model is known in a section: held, listed with its limits unknown, or not at all. */
  const standing = (section: string, id: string) => {
    if (holds(section, id)) return "held";
    if (!listed.ids.includes(id)) return "unknown";
    const typed = listed.sectionOf.get(id);
    if (typed !== undefined ? typed !== section : heldElsewhere(section, id)) return "unknown";
    if (!Object.hasOwn(listed.described, section)) return "held";
    return typed === section ? "without its limits" : "without a type";
  };
  if (models.length === 0 || uses.length === 0) return changed ? merged : catalogs;
  const unknown = uses.filter((use) => standing(use.catalog, use.model) === "unknown");
  if (unknown.length > 0) {
    const offered = (section: string) => [
      ...new Set([
        ...(merged[section] ?? []).map((entry) => entry.id),
        ...listed.ids.filter((id) => standing(section, id) !== "unknown"),
      ]),
    ];
    const sections = [
      ...new Set([...options.kinds.values()].flatMap((kind) => kind.models.map((m) => m.catalog))),
    ];
    const known: KnownCatalog[] = sections.map((section) => ({
      catalog: section,
      models: offered(section),
      empty:
        catalogs?.[section] || Object.hasOwn(listed.described, section)
          ? "none known"
          : "none listed",
    }));
    const advised = unknown.find((use) => use.declared.advice);
    throw new UnknownModelError(
      unknown.map(({ position, declared: _declared, ...use }) => {
        const near = closest(use.model, offered(use.catalog));
        return { ...use, ...position(), ...(near ? { near } : {}) };
      }),
      known,
      advised?.declared.advice?.(advised.model),
    );
  }
  const unpriced = new Map<string, { section: string; typed: boolean }>();
  for (const use of uses) {
    const state = standing(use.catalog, use.model);
    if (state === "without its limits" || state === "without a type")
      unpriced.set(use.model, { section: use.catalog, typed: state === "without its limits" });
  }
  for (const [id, { section, typed }] of unpriced) {
    options.warn?.(
      `${modelNoun(section)} \`${id}\` is listed by the service ${typed ? "without its limits" : "without a type"}: its limits and price are unknown, so its requests are not checked before sending and it has no estimate (declare it under ${section}: in a provider profile)`,
    );
    merged[section] = [...(merged[section] ?? []), { id }];
    changed = true;
  }
  return changed ? merged : catalogs;
}
