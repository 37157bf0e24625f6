/** What one chat model of the simulator can do. */
export interface ChatModelInfo {
  id: string;
  description: string;
  /** Accepts `image_url` content parts (else 400). */
  images: boolean;
  /** Accepts `tools` and answers with tool calls. */
  tools: boolean;
  /** Accepts `response_format` `json_object` and `json_schema`. */
  json: boolean;
  /** Answers 400 to `json_object` when no system message mentions JSON (spec 4.4). */
  requiresJsonMention: boolean;
  /** Largest prompt + completion, in tokens (about one a word). */
  contextWindow: number;
}

/**
 * The chat models the simulator serves and lists at `GET /v1/models`.
 *
 * @example
 * chatModels.filter((model) => model.images).map((model) => model.id); // ["reel-chat-1"]
 */
export const chatModels: ChatModelInfo[] = [
  {
    id: "reel-chat-1",
    description:
      "Understands images, calls tools, answers in JSON; lenient about the JSON mention.",
    images: true,
    tools: true,
    json: true,
    requiresJsonMention: false,
    contextWindow: 128_000,
  },
  {
    id: "reel-chat-mini",
    description:
      "Text only (an image_url part gets a 400); enforces the spec 4.4 JSON-mention rule.",
    images: false,
    tools: true,
    json: true,
    requiresJsonMention: true,
    contextWindow: 32_000,
  },
];

/** The catalog entry of `id`, or undefined. */
export function findChatModel(id: string): ChatModelInfo | undefined {
  return chatModels.find((model) => model.id === id);
}

/** Fixed creation time reported for every model (2026-01-01T00:00:00Z). */
export const modelsCreated = 1_767_225_600;
