import type { ParamSpec, VideoModelCatalog, VideoModelSpec } from "../videos/types.js";
import type { ProfileParam, ProfileVideoModel, ProviderProfile } from "./profile-types.js";

/** What a chat model of a profile can do; a capability left undefined is unknown. */
export interface ChatModelSpec {
  id: string;
  images?: boolean;
  json?: boolean;
  tools?: boolean;
}

/**
 * The video models of a (valid) profile as core's catalog: camelCase, params normalised to
 * {@link ParamSpec}, unknown (missing or null) fields left undefined.
 *
 * @example
 * ```ts
 * const client = createClient({ videoModels: videoCatalogFromProfile(profile) });
 * ```
 */
export function videoCatalogFromProfile(profile: ProviderProfile): VideoModelCatalog {
  return Object.freeze(
    Object.entries(profile.video_models ?? {}).map(([id, model]) => videoModelSpec(id, model)),
  );
}

/**
 * The chat models of a (valid) profile with their capabilities.
 *
 * @example
 * ```ts
 * chatModelsFromProfile(profile).filter((model) => model.images).map((model) => model.id);
 * ```
 */
export function chatModelsFromProfile(profile: ProviderProfile): ChatModelSpec[] {
  return Object.entries(profile.chat_models ?? {}).map(([id, model]) => {
    const spec: ChatModelSpec = { id };
    if (typeof model?.images === "boolean") spec.images = model.images;
    if (typeof model?.json === "boolean") spec.json = model.json;
    if (typeof model?.tools === "boolean") spec.tools = model.tools;
    return spec;
  });
}

function videoModelSpec(id: string, model: ProfileVideoModel | null): VideoModelSpec {
  const spec: VideoModelSpec = { id };
  if (!model) return Object.freeze(spec);
  if (model.seconds) {
    spec.seconds = Array.isArray(model.seconds)
      ? Object.freeze([...model.seconds])
      : Object.freeze({ min: model.seconds.min, max: model.seconds.max });
  }
  if (model.sizes) {
    spec.sizes = Array.isArray(model.sizes)
      ? Object.freeze([...model.sizes])
      : Object.freeze({
          width: { min: model.sizes.width.min, max: model.sizes.width.max },
          height: { min: model.sizes.height.min, max: model.sizes.height.max },
        });
  }
  if (typeof model.image === "boolean") spec.image = model.image;
  if (model.params) {
    spec.params = Object.freeze(
      Object.fromEntries(
        Object.entries(model.params).map(([name, param]) => [name, paramSpec(param)]),
      ),
    );
  }
  if (model.price) {
    spec.price = {};
    if (model.price.per_clip !== undefined) spec.price.perClip = model.price.per_clip;
    if (model.price.per_second !== undefined) spec.price.perSecond = model.price.per_second;
    if (model.price.per_megapixel_second !== undefined)
      spec.price.perMegapixelSecond = model.price.per_megapixel_second;
  }
  return Object.freeze(spec);
}

/**
 * A profile's parameter (short or long form) as a {@link ParamSpec}: a list of allowed values
 * becomes an `enum` of type string, integer or number after its values.
 *
 * @example
 * ```ts
 * paramSpec(["16:9", "9:16"]); // { type: "string", enum: ["16:9", "9:16"] }
 * paramSpec("integer"); // { type: "integer" }
 * ```
 */
export function paramSpec(param: ProfileParam): ParamSpec {
  if (typeof param === "string") return { type: param };
  if (Array.isArray(param)) {
    const numbers = param.every((value) => typeof value === "number");
    const integers = numbers && param.every((value) => Number.isInteger(value));
    return {
      type: integers ? "integer" : numbers ? "number" : "string",
      enum: Object.freeze([...param]),
    };
  }
  const spec: ParamSpec = { type: param.type };
  if (param.enum) spec.enum = Object.freeze([...param.enum]);
  if (param.minimum !== undefined) spec.minimum = param.minimum;
  if (param.maximum !== undefined) spec.maximum = param.maximum;
  if (param.description !== undefined) spec.description = param.description;
  return spec;
}
