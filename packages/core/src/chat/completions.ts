import { APIError } from "../errors/api-error.js";
import type { RequestOptions } from "../http/request-options.js";
import type { Transport } from "../http/transport.js";
import { ChatCompletionStream } from "./chat-completion-stream.js";
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "./types.js";
import { validateChatParams } from "./validate-chat-params.js";

/**
 * `client.chat.completions`: `POST /v1/chat/completions`.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({
 *   model: "reel-chat-1",
 *   messages: [{ role: "user", content: "Name a colour." }],
 * });
 * console.log(completion.choices[0]?.message.content);
 * ```
 */
export class ChatCompletions {
  readonly #transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One completion (`stream` false/absent), or a `ChatCompletionStream` (`stream: true`). Params are validated first. */
  create(
    params: ChatCompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletion>;
  create(
    params: ChatCompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletionStream>;
  create(
    params: ChatCompletionCreateParams,
    options?: RequestOptions,
  ): Promise<ChatCompletion | ChatCompletionStream>;
  async create(
    params: ChatCompletionCreateParams,
    options: RequestOptions = {},
  ): Promise<ChatCompletion | ChatCompletionStream> {
    validateChatParams(params);
    if (params.stream !== true) {
      const response = await this.#transport.json<ChatCompletion>({
        method: "POST",
        path: "/v1/chat/completions",
        body: params,
        options,
      });
      const completion = response.data;
      if (!completion || typeof completion !== "object" || !Array.isArray(completion.choices)) {
        throw new APIError("The service returned a chat completion without `choices`.", {
          status: response.status,
          requestId: response.requestId,
          code: "invalid_response",
        });
      }
      return completion;
    }
    const local = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
    const response = await this.#transport.stream({
      method: "POST",
      path: "/v1/chat/completions",
      body: params,
      accept: "text/event-stream",
      options: { ...options, signal },
    });
    return new ChatCompletionStream(
      response,
      this.#transport.config.streamIdleTimeoutMs,
      this.#transport.redact,
      () => local.abort(),
    );
  }
}
