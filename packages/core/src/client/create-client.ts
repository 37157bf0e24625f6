import { Audio } from "../audio/audio.js";
import {
  type ChatJSONParams,
  type ChatJSONResult,
  createAjv,
  runChatJSON,
} from "../chat/chat-json.js";
import { ChatCompletions } from "../chat/completions.js";
import { type RunToolsParams, type RunToolsResult, runTools } from "../chat/run-tools.js";
import type { RequestOptions } from "../http/request-options.js";
import { Transport } from "../http/transport.js";
import { Images } from "../images/images.js";
import { Models } from "../models/models.js";
import { providerAccess } from "../providers/registry.js";
import { Videos } from "../videos/videos.js";
import { resolveConfig } from "./config.js";
import type { ClientOptions } from "./options.js";

/** `client.chat`: completions, JSON replies and tool loops. */
export interface ChatNamespace {
  completions: ChatCompletions;
  /**
   * Asks for a JSON reply (`response_format: json_object`, a JSON mention added to the
   * system message when missing), parses it, validates it against `schema`, and re-asks
   * quoting the errors, up to `maxAttempts` (default 3). Gives up with `JSONResponseError`.
   */
  json<T = unknown>(params: ChatJSONParams, options?: RequestOptions): Promise<ChatJSONResult<T>>;
  /**
   * Runs the tool-call loop: executes each round's calls in parallel, appends the results
   * in call order, asks again, until a reply without tool calls. Throws
   * `ToolRoundsExceededError` at `maxRounds` (default 10).
   */
  runTools(params: RunToolsParams, options?: RequestOptions): Promise<RunToolsResult>;
}

/** The client returned by `createClient()`. */
export interface ReelsmithClient {
  /** The normalised base URL (no `/v1`, no credentials); empty when none is configured. */
  readonly baseURL: string;
  /**
   * The service answers a request sent again with the same Idempotency-Key with its first
   * answer, never a second charge (`honoursIdempotencyKeys`): a request whose answer was lost
   * may be sent again under its key.
   */
  readonly honoursIdempotencyKeys: boolean;
  readonly models: Models;
  readonly chat: ChatNamespace;
  readonly videos: Videos;
  /** Image generation and edits with reference images. */
  readonly images: Images;
  /** Speech and transcription with word timings. */
  readonly audio: Audio;
  /**
   * The client serving a model: another account's when the client routes models to several
   * providers ({@link routeClients}), else this one. Use {@link clientForModel} to ask.
   */
  readonly forModel?: (model: string) => ReelsmithClient;
  /** The provider account serving a model, when it is not the default one ({@link routeClients}). */
  readonly accountOf?: (model: string) => string | undefined;
}

/**
 * Creates a client for the service. `baseURL` and `apiKey` fall back to
 * `REELSMITH_BASE_URL`/`REELSMITH_API_KEY`, then `OPENAI_BASE_URL`/`OPENAI_API_KEY`; a
 * missing one fails with `MissingConfigurationError` on the first call. The API key is held
 * privately: it is not a property of the client, and never appears in errors or logs.
 *
 * @example
 * ```ts
 * import { createClient } from "@reelsmith/core";
 * const client = createClient({ baseURL: "http://127.0.0.1:8080", apiKey: process.env.KEY });
 * const models = await client.models.list();
 * ```
 */
export function createClient(options: ClientOptions = {}): ReelsmithClient {
  const config = resolveConfig(options);
  const transport = new Transport(
    config,
    providerAccess(config.dialect),
    config.apiKey,
    options.dispatcher,
    options.fetch,
  );
  config.apiKey = undefined; // held by the transport only
  const completions = new ChatCompletions(transport);
  const ajv = createAjv();
  return Object.freeze({
    baseURL: config.baseURL ?? "",
    honoursIdempotencyKeys: config.honoursIdempotencyKeys,
    models: new Models(transport),
    chat: Object.freeze({
      completions,
      json: <T = unknown>(params: ChatJSONParams, requestOptions?: RequestOptions) =>
        runChatJSON<T>(completions, ajv, params, requestOptions),
      runTools: (params: RunToolsParams, requestOptions?: RequestOptions) =>
        runTools(completions, ajv, params, requestOptions),
    }),
    videos: new Videos(transport),
    images: new Images(transport, options.imageModels),
    audio: new Audio(transport, options.speechModels, options.transcriptionModels),
  });
}
