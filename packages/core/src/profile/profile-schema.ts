import { describeProviders, providerAccess, providerNames } from "../providers/registry.js";
import { priceUnits } from "./profile-types.js";

/** For providers whose key has parts: one variable per part, in order (derived from the registry). */
function keyPartsNote(): string {
  const parted = providerNames
    .map((name) => providerAccess(name))
    .filter((provider) => (provider.keyParts?.length ?? 0) > 1)
    .map((provider) => `${provider.name}: ${provider.keyParts?.join(", ")}`);
  return parted.length === 0
    ? ""
    : `; for a provider whose key has parts, one variable per part, in order (${parted.join("; ")}), their values joined by ':'`;
}

/** Identifier of the published schema (the file ships as `@reelsmith/core/profile.schema.json`). */
export const profileSchemaId = "https://reelsmith.dev/schema/profile.schema.json";

const range = (what: string, minimum: number) => ({
  type: "object",
  description: `An inclusive range of ${what}: { min, max }.`,
  required: ["min", "max"],
  additionalProperties: false,
  properties: {
    min: { type: "integer", minimum },
    max: { type: "integer", minimum },
  },
});

/** The audio formats of OpenAI's `/v1/audio/speech` (`response_format`). */
export const speechFormats = ["mp3", "opus", "aac", "flac", "wav", "pcm"] as const;

/** What `service` and each of `providers` say of an account: where, how it speaks, its key. */
const accountProperties = {
  base_url: {
    type: "string",
    pattern: "^https?://",
    description: "The service's address (with or without a trailing /v1).",
  },
  api_key_env: {
    type: "array",
    description: `Names of environment variables holding the API key, tried in order${keyPartsNote()}. Never the key itself.`,
    items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    minItems: 1,
  },
  dialect: {
    enum: [...providerNames],
    description: `The service's provider, how its API speaks: ${describeProviders()}. Default reference.`,
  },
  idempotency_keys: {
    type: "boolean",
    description:
      "The service answers a repeated Idempotency-Key with the job it already made. Default false.",
  },
  lists_jobs: {
    type: "boolean",
    description: "GET /v1/videos lists the account's jobs. Default false.",
  },
  poll_interval: {
    description: 'Time between two polls of a video job: "5s", "500ms", or a number of seconds.',
    anyOf: [
      { type: "number", exclusiveMinimum: 0 },
      { type: "string", pattern: "^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m)\\s*$" },
    ],
  },
} as const;

const paramTypes = ["integer", "number", "string", "boolean", "image"];

/**
 * The JSON Schema (draft-07) of a provider profile (`reelsmith.config.yaml`), as plain JSON.
 * `schema/profile.schema.json` holds the same object (a test keeps them equal); editors use it
 * through `# yaml-language-server: $schema=…`.
 *
 * @example
 * ```ts
 * import { profileJsonSchema } from "@reelsmith/core/profile";
 * new Ajv().compile(profileJsonSchema);
 * ```
 */
export const profileJsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: profileSchemaId,
  title: "reelsmith provider profile",
  description:
    "Describes the media-generation services of an account: where the default one is (service) and any more (providers), how each speaks, its video models (limits, parameters, prices) chat models, and image, speech and transcription models. Never holds a key: name the environment variables that hold it in service.api_key_env.",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string", description: "The address of this schema (for editors)." },
    service: {
      type: "object",
      description: "Where the service is and how it speaks.",
      additionalProperties: false,
      properties: accountProperties,
    },
    providers: {
      type: "object",
      description:
        "More provider accounts, by a name of your choice; a model names its account with `provider:` (a model that names none is served by `service`).",
      propertyNames: { pattern: "^[A-Za-z][A-Za-z0-9_-]*$" },
      additionalProperties: { $ref: "#/definitions/provider" },
    },
    video_models: {
      type: "object",
      description: "The video models, by the id the service knows them by.",
      additionalProperties: { $ref: "#/definitions/videoModel" },
    },
    chat_models: {
      type: "object",
      description: "The chat models, by id, with what they can do.",
      additionalProperties: { $ref: "#/definitions/chatModel" },
    },
    image_models: {
      type: "object",
      description:
        "The image models (POST /v1/images/generations and /v1/images/edits), by id: sizes, references, price.",
      additionalProperties: { $ref: "#/definitions/imageModel" },
    },
    speech_models: {
      type: "object",
      description: "The speech models (POST /v1/audio/speech), by id: voices, formats, price.",
      additionalProperties: { $ref: "#/definitions/speechModel" },
    },
    transcription_models: {
      type: "object",
      description:
        "The transcription models (POST /v1/audio/transcriptions), by id: word timestamps, price.",
      additionalProperties: { $ref: "#/definitions/transcriptionModel" },
    },
  },
  definitions: {
    provider: {
      type: "object",
      description:
        "One provider account: how it speaks, where it is, the variables of its key, its limits and the unit of its prices.",
      required: ["dialect"],
      additionalProperties: false,
      properties: {
        ...accountProperties,
        max_concurrent_jobs: {
          type: "integer",
          minimum: 1,
          description: "Video jobs this account runs at once (its models' clips share them).",
        },
        unit: {
          enum: [...priceUnits],
          description:
            "The unit of the prices of this account's models: credits (default), usd, eur or characters.",
        },
        credits_per_unit: {
          type: "number",
          exclusiveMinimum: 0,
          description:
            "Credits one `unit` is worth: with it, this account's prices count in credit estimates and budgets; without it a budget in credits refuses its models.",
        },
      },
    },
    videoModel: {
      type: ["object", "null"],
      description: "One video model. A field left out (or null) is unknown and not checked.",
      additionalProperties: false,
      properties: {
        description: { type: "string" },
        seconds: {
          description:
            "Allowed clip lengths in whole seconds: a range { min, max } or a list of allowed values such as [4, 8, 12].",
          anyOf: [
            range("seconds", 1),
            { type: "array", items: { type: "integer", minimum: 1 }, minItems: 1 },
            { type: "null" },
          ],
        },
        sizes: {
          description:
            'Allowed sizes: a list such as ["1280x720", "720x1280"], or ranges { width: { min, max }, height: { min, max } }.',
          anyOf: [
            {
              type: "array",
              items: { type: "string", pattern: "^\\d+x\\d+$" },
              minItems: 1,
            },
            {
              type: "object",
              required: ["width", "height"],
              additionalProperties: false,
              properties: { width: range("pixels", 1), height: range("pixels", 1) },
            },
            { type: "null" },
          ],
        },
        image: {
          type: ["boolean", "null"],
          description: "Accepts a reference image (image-to-video).",
        },
        params: {
          type: ["object", "null"],
          description:
            "Provider parameters the model accepts, by name: a type (integer, number, string, boolean, image), a list of allowed values, or { type, enum, minimum, maximum, description }.",
          additionalProperties: { $ref: "#/definitions/param" },
        },
        price: {
          type: ["object", "null"],
          description:
            "Price in credits, for estimates and budgets: per_clip, per_second, per_megapixel_second (by resolution, rounded up to a whole credit), in any combination.",
          additionalProperties: false,
          properties: {
            per_clip: { type: "number", minimum: 0 },
            per_second: { type: "number", minimum: 0 },
            per_megapixel_second: { type: "number", minimum: 0 },
          },
        },
        provider: {
          type: "string",
          description: "The account (a name under providers) that serves it; default service.",
        },
      },
    },
    param: {
      description:
        "A parameter: a type (integer, number, string, boolean, image), a list of allowed values, or { type, enum, minimum, maximum, description }.",
      anyOf: [
        { enum: paramTypes },
        {
          type: "array",
          items: { type: ["string", "number"] },
          minItems: 1,
        },
        {
          type: "object",
          required: ["type"],
          additionalProperties: false,
          properties: {
            type: { enum: paramTypes },
            enum: { type: "array", items: { type: ["string", "number"] }, minItems: 1 },
            minimum: { type: "number" },
            maximum: { type: "number" },
            description: { type: "string" },
          },
        },
      ],
    },
    chatModel: {
      type: ["object", "null"],
      description: "One chat model and what it can do. A capability left out is unknown.",
      additionalProperties: false,
      properties: {
        description: { type: "string" },
        images: { type: "boolean", description: "Understands image_url content parts." },
        json: { type: "boolean", description: "Honours response_format json_object." },
        tools: { type: "boolean", description: "Calls tools." },
        provider: {
          type: "string",
          description: "The account (a name under providers) that serves it; default service.",
        },
      },
    },
    imageModel: {
      type: ["object", "null"],
      description: "One image model. A field left out (or null) is unknown and not checked.",
      additionalProperties: false,
      properties: {
        description: { type: "string" },
        sizes: {
          description:
            'Sizes it draws, such as ["1024x1024", "1536x1024"]; the first is the default.',
          anyOf: [
            { type: "array", items: { type: "string", pattern: "^\\d+x\\d+$" }, minItems: 1 },
            { type: "null" },
          ],
        },
        max_references: {
          type: ["integer", "null"],
          minimum: 0,
          description: "Most reference images one edit takes (image[]); 0 when it takes none.",
        },
        max_images: {
          type: ["integer", "null"],
          minimum: 1,
          description: "Most images one request may ask for (n).",
        },
        price: {
          type: ["object", "null"],
          description: "Price in credits, for estimates and budgets.",
          additionalProperties: false,
          properties: { per_image: { type: "number", minimum: 0 } },
        },
        provider: {
          type: "string",
          description: "The account (a name under providers) that serves it; default service.",
        },
      },
    },
    speechModel: {
      type: ["object", "null"],
      description: "One speech model. A field left out (or null) is unknown and not checked.",
      additionalProperties: false,
      properties: {
        description: { type: "string" },
        voices: {
          description: "The voices it speaks with, by name.",
          anyOf: [{ type: "array", items: { type: "string" }, minItems: 1 }, { type: "null" }],
        },
        formats: {
          description:
            "The audio formats it answers with (response_format); the first is the default.",
          anyOf: [
            { type: "array", items: { enum: [...speechFormats] }, minItems: 1 },
            { type: "null" },
          ],
        },
        price: {
          type: ["object", "null"],
          description: "Price in credits per 1,000 characters of input, rounded up per request.",
          additionalProperties: false,
          properties: { per_1000_characters: { type: "number", minimum: 0 } },
        },
        provider: {
          type: "string",
          description: "The account (a name under providers) that serves it; default service.",
        },
      },
    },
    transcriptionModel: {
      type: ["object", "null"],
      description:
        "One transcription model. A field left out (or null) is unknown and not checked.",
      additionalProperties: false,
      properties: {
        description: { type: "string" },
        word_timestamps: {
          type: ["boolean", "null"],
          description: "Answers timestamp_granularities[]=word with each word's start and end.",
        },
        price: {
          type: ["object", "null"],
          description: "Price in credits per minute of audio, rounded up per request.",
          additionalProperties: false,
          properties: { per_minute: { type: "number", minimum: 0 } },
        },
        provider: {
          type: "string",
          description: "The account (a name under providers) that serves it; default service.",
        },
      },
    },
  },
} as const;
