import { type Modality, modalityOfTypeWord } from "./modalities.js";
import type { Model } from "./types.js";

/** What a listed model is, as far as its entry in `GET /v1/models` says: a modality, or unknown. */
export type ModelKind = Modality | "unknown";

/** Fields only a chat model's entry carries (the reference interface's, and common extensions). */
const CHAT_FIELDS = ["capabilities", "context_window", "context_length", "max_tokens"] as const;

/**
 * The kind of a listed model: what its `type` says (`video`, `chat`, `image`, `speech`,
 * `transcription`, and their common synonyms), else `video` for a `video` metadata object,
 * `chat` for an untyped entry with chat fields (`capabilities`, `context_window`), else
 * `unknown`: aggregators list every id, chat and video alike, with no type, so an untyped id
 * may be any kind.
 *
 * @example
 * modelKind({ id: "veo-3-fast", object: "model", owned_by: "acme" }); // "unknown"
 * modelKind({ id: "reel-video-1", type: "video" }); // "video"
 * modelKind({ id: "reel-voice-1", type: "speech" }); // "speech"
 */
export function modelKind(model: Model): ModelKind {
  const type = typeof model.type === "string" ? model.type.toLowerCase() : undefined;
  const named = type !== undefined ? modalityOfTypeWord(type) : undefined;
  if (named) return named;
  if (model.video && typeof model.video === "object") return "video";
  if (type === undefined && CHAT_FIELDS.some((field) => model[field] !== undefined)) return "chat";
  return "unknown";
}

/** What a model list shows of the service's video dialect, and why. */
export interface ListedDialect {
  /**
   * The dialect to use: `reference` (the service interface's, the default) unless the service
   * showed otherwise. A model list never shows `openai`: its shape says nothing about the
   * video API.
   */
  dialect: "reference" | "openai";
  /** True when the service showed it (its list types its models, as the interface does). */
  evidence: boolean;
  /** Why, in words for a comment or a table: what could not be told, and when to pick `openai`. */
  reason: string;
}

/** When `openai` is the right dialect, in words a comment or a table can end with. */
export const OPENAI_DIALECT_WHEN =
  "pick openai only if the service's POST /v1/videos takes OpenAI's multipart/form-data (a run then fails with a 400 or 415 about the body's encoding, such as `body must be JSON`, and says so)";

/**
 * The video dialect a service's model list shows: `reference` with evidence when its entries
 * carry the reference interface's fields (a `type`, `video` limits, chat `capabilities`);
 * else `reference` as the interface's default, saying what could not be told. An OpenAI-shaped
 * list (`id`, `object`, `created`, `owned_by`) is no evidence of OpenAI's video API: the
 * interface lists its models in that very shape. Free: it reads the list the caller has.
 *
 * @example
 * dialectOfModelList([{ id: "veo-3", object: "model", created: 1, owned_by: "acme" }]); // { dialect: "reference", evidence: false, … }
 */
export function dialectOfModelList(models: readonly Model[]): ListedDialect {
  if (models.some((model) => model.type !== undefined || modelKind(model) !== "unknown"))
    return {
      dialect: "reference",
      evidence: true,
      reason: "its model list types its models, as the reference interface does",
    };
  return {
    dialect: "reference",
    evidence: false,
    reason: `the service interface's default: ${models.length === 0 ? "the service lists no models" : "its model list has no types, and a list's shape says nothing of its video API"}, so the dialect could not be told; ${OPENAI_DIALECT_WHEN}`,
  };
}
