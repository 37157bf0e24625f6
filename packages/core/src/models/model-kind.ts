import type { Model } from "./types.js";

/** What a listed model is, as far as its entry in `GET /v1/models` says. */
export type ModelKind = "chat" | "video" | "image" | "speech" | "transcription" | "unknown";

/** The `type` words of the media models a service may list, by the kind each one names. */
const MEDIA_TYPES: Readonly<Record<string, "image" | "speech" | "transcription">> = {
  image: "image",
  speech: "speech",
  tts: "speech",
  transcription: "transcription",
  stt: "transcription",
};

/** Fields only a chat model's entry carries (the reference interface's, and common extensions). */
const CHAT_FIELDS = ["capabilities", "context_window", "context_length", "max_tokens"] as const;

/**
 * The kind of a listed model: `video` for `type: "video"` (or a `video` metadata object),
 * `chat` for `type: "chat"` or an entry with chat fields (`capabilities`, `context_window`),
 * `image`, `speech` or `transcription` for those types (`tts` and `stt` too), else `unknown`: aggregators list every id, chat and video alike, with no type, so an
 * untyped id may be either.
 *
 * @example
 * modelKind({ id: "veo-3-fast", object: "model", owned_by: "acme" }); // "unknown"
 * modelKind({ id: "reel-video-1", type: "video" }); // "video"
 * modelKind({ id: "reel-voice-1", type: "speech" }); // "speech"
 */
export function modelKind(model: Model): ModelKind {
  const type = typeof model.type === "string" ? model.type.toLowerCase() : undefined;
  if (type === "video" || (model.video && typeof model.video === "object")) return "video";
  if (type === "chat" || type === "text" || type === "llm") return "chat";
  if (type !== undefined && Object.hasOwn(MEDIA_TYPES, type)) return MEDIA_TYPES[type] ?? "unknown";
  if (type === undefined && CHAT_FIELDS.some((field) => model[field] !== undefined)) return "chat";
  return "unknown";
}

/** What the shape of a model list says of the service's video dialect, and why. */
export interface ListedDialect {
  dialect: "reference" | "openai" | undefined;
  /** Why, in words for a comment or a table. */
  reason: string;
}

/** The fields of an entry in OpenAI's own model list, and nothing else. */
const OPENAI_ENTRY = new Set(["id", "object", "created", "owned_by"]);

/**
 * The video dialect a service's model list suggests: `reference` when its entries carry the
 * reference interface's fields (a `type`, `video` limits, chat `capabilities`); `openai` when
 * every entry has exactly the fields of OpenAI's list (`id`, `object: "model"`, `created`,
 * `owned_by`), as the aggregators that copy OpenAI's API answer; else undefined (could not
 * tell). Free: it reads the list the caller already has.
 *
 * @example
 * dialectOfModelList([{ id: "veo-3", object: "model", created: 1, owned_by: "acme" }]).dialect; // "openai"
 */
export function dialectOfModelList(models: readonly Model[]): ListedDialect {
  if (models.length === 0)
    return { dialect: undefined, reason: "could not tell: the service lists no models" };
  if (models.some((model) => model.type !== undefined || modelKind(model) !== "unknown"))
    return {
      dialect: "reference",
      reason: "its model list types its models, as the reference interface does",
    };
  if (
    models.every(
      (model) =>
        model.object === "model" &&
        typeof model.owned_by === "string" &&
        Object.keys(model).every((field) => OPENAI_ENTRY.has(field)),
    )
  )
    return {
      dialect: "openai",
      reason: "its model list has OpenAI's shape (id, object, created, owned_by; no types)",
    };
  return {
    dialect: undefined,
    reason: "could not tell from its model list (untyped entries in no known shape)",
  };
}
