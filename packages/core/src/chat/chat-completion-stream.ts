import type { EventSourceMessage } from "eventsource-parser";
import { APIConnectionError } from "../errors/api-connection-error.js";
import { APIError } from "../errors/api-error.js";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { parseErrorBody } from "../http/error-from-response.js";
import { readBody } from "../http/read-body.js";
import type { StreamResponse } from "../http/transport.js";
import { ChatCompletionAccumulator } from "./accumulate.js";
import { parseServerSentEventBatches } from "./sse.js";
import type { ChatCompletion, ChatCompletionChunk } from "./types.js";

/**
 * A streamed chat completion: iterate it for the chunks, and/or await `finalCompletion()`
 * for the assembled result (content joined, tool calls assembled, usage when
 * `stream_options.include_usage` was set). It can be iterated once. `abort()` closes the
 * connection; the iteration then fails with `APIUserAbortError`.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ model: "reel-chat-1", messages, stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");
 * const completion = await stream.finalCompletion();
 * // Or, with no promise per chunk (the chunks of one network read are handed over at once):
 * const completion = await stream.forEachChunk((chunk) => process.stdout.write(chunk.choices[0]?.delta.content ?? ""));
 * ```
 */
export class ChatCompletionStream implements AsyncIterable<ChatCompletionChunk> {
  readonly #response: StreamResponse;
  readonly #idleMs: number;
  readonly #redact: (text: string) => string;
  readonly #abort: () => void;
  readonly #accumulator = new ChatCompletionAccumulator();
  #started = false;
  #settle!: { resolve(value: ChatCompletion): void; reject(error: unknown): void };
  readonly #final: Promise<ChatCompletion>;
  /** Value of the response's `x-request-id` header. */
  readonly requestId: string | undefined;

  /** @internal Created by `chat.completions.create({ stream: true })`. */
  constructor(
    response: StreamResponse,
    idleMs: number,
    redact: (text: string) => string,
    abort: () => void,
  ) {
    this.#response = response;
    this.#idleMs = idleMs;
    this.#redact = redact;
    this.#abort = abort;
    this.requestId = response.requestId;
    this.#final = new Promise<ChatCompletion>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.#final.catch(() => {}); // surfaced through the iterator or finalCompletion()
  }

  /** Closes the connection. A running iteration and `finalCompletion()` reject with `APIUserAbortError`. */
  abort(): void {
    this.#abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
    if (this.#started) throw new Error("A ChatCompletionStream can be iterated only once.");
    this.#started = true;
    return this.#iterate();
  }

  /** Consumes the rest of the stream (unless it is being iterated) and returns the completion. */
  finalCompletion(): Promise<ChatCompletion> {
    if (!this.#started) {
      const iterator = this[Symbol.asyncIterator]();
      void (async () => {
        try {
          while (!(await iterator.next()).done) {}
        } catch {
          // the same error rejects #final
        }
      })();
    }
    return this.#final;
  }

  /**
   * Consumes the stream, calling `onChunk` with each chunk as it is parsed, and returns the
   * completion (as `finalCompletion()` does). The iterator's work without its promise per
   * chunk: the chunks of one network read are handed over in one synchronous run, which is
   * what a long stream of small deltas spends most on. Like the iterator it can be used once
   * and fails the same ways; an error thrown by `onChunk` closes the connection and rejects
   * with that error.
   *
   * @example
   * ```ts
   * const completion = await stream.forEachChunk((chunk) => write(chunk.choices[0]?.delta.content ?? ""));
   * ```
   */
  async forEachChunk(onChunk: (chunk: ChatCompletionChunk) => void): Promise<ChatCompletion> {
    if (this.#started) throw new Error("A ChatCompletionStream can be iterated only once.");
    this.#started = true;
    const batches = parseServerSentEventBatches(
      readBody(this.#response, this.#idleMs, this.#redact),
    );
    try {
      for (;;) {
        const next = await batches.next();
        if (next.done) break;
        const batch = next.value;
        for (let index = 0; index < batch.length; index++) {
          const chunk = this.#toChunk(batch[index] as EventSourceMessage);
          if (chunk === "done") {
            this.#settle.resolve(this.#accumulator.completion());
            return this.#final;
          }
          if (chunk !== undefined) onChunk(chunk);
        }
      }
      if (!this.#accumulator.finished) {
        throw new APIConnectionError(
          "The stream ended before the completion finished (no [DONE]).",
          { code: "stream_incomplete" },
        );
      }
      this.#settle.resolve(this.#accumulator.completion());
      return this.#final;
    } catch (error) {
      this.#settle.reject(error);
      this.#abort();
      void batches.return(undefined).catch(() => undefined);
      throw error;
    }
  }

  /** Turns one SSE event into a chunk; "done" for [DONE], undefined for an empty event. */
  #toChunk(event: EventSourceMessage): ChatCompletionChunk | "done" | undefined {
    const data = event.data;
    // Almost every event is a JSON object: only others need the [DONE] and blank checks.
    if (data.charCodeAt(0) !== 123 /* { */) {
      const trimmed = data.trim();
      if (trimmed === "[DONE]") return "done";
      if (trimmed === "") return undefined;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new APIError(
        `The stream carried an event that is not JSON: ${this.#redact(data.slice(0, 200))}`,
        { requestId: this.requestId, code: "invalid_stream_event" },
      );
    }
    if (event.event === "error" || (payload && typeof payload === "object" && "error" in payload)) {
      const parsed = parseErrorBody(data);
      throw new APIError(
        this.#redact(parsed.message ?? "The service reported an error mid-stream."),
        {
          requestId: this.requestId,
          type: parsed.type,
          param: parsed.param,
          code: parsed.code === undefined ? "stream_error" : this.#redact(parsed.code),
        },
      );
    }
    const chunk = payload as ChatCompletionChunk;
    if (!Array.isArray(chunk.choices)) chunk.choices = [];
    this.#accumulator.add(chunk);
    return chunk;
  }

  /**
   * The chunk iterator. Hand-written rather than an async generator: the events of one
   * network read are served from the batch without a generator resumption each, which
   * was a third of the per-chunk cost on a fast stream.
   */
  #iterate(): AsyncIterator<ChatCompletionChunk> {
    const batches = parseServerSentEventBatches(
      readBody(this.#response, this.#idleMs, this.#redact),
    );
    let batch: EventSourceMessage[] = [];
    let position = 0;
    let closed = false;
    const finish = (done: boolean, error?: unknown) => {
      if (closed) return;
      closed = true;
      if (error !== undefined) this.#settle.reject(error);
      else if (done) this.#settle.resolve(this.#accumulator.completion());
      if (!done) {
        this.#abort();
        void batches.return(undefined).catch(() => undefined);
      }
      // Early `break` by the consumer: the final completion is not available.
      this.#settle.reject(new APIUserAbortError("The stream was closed before it ended."));
    };
    const end: IteratorResult<ChatCompletionChunk> = { done: true, value: undefined };
    // Serves the chunks already read; undefined when the batch is used up.
    const fromBatch = (): IteratorResult<ChatCompletionChunk> | undefined => {
      while (position < batch.length) {
        const chunk = this.#toChunk(batch[position++] as EventSourceMessage);
        if (chunk === "done") {
          finish(true);
          return end;
        }
        if (chunk !== undefined) return { done: false, value: chunk };
      }
      return undefined;
    };
    const pull = async (): Promise<IteratorResult<ChatCompletionChunk>> => {
      try {
        for (;;) {
          const next = await batches.next();
          if (next.done) {
            if (!this.#accumulator.finished) {
              throw new APIConnectionError(
                "The stream ended before the completion finished (no [DONE]).",
                { code: "stream_incomplete" },
              );
            }
            finish(true);
            return end;
          }
          batch = next.value;
          position = 0;
          const result = fromBatch();
          if (result) return result;
        }
      } catch (error) {
        finish(false, error);
        throw error;
      }
    };
    return {
      next: () => {
        if (closed) return Promise.resolve(end);
        try {
          const result = fromBatch();
          if (result) return Promise.resolve(result);
        } catch (error) {
          finish(false, error);
          return Promise.reject(error);
        }
        return pull();
      },
      return: () => {
        finish(false);
        return Promise.resolve(end);
      },
    };
  }
}
