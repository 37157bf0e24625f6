import type {
  AssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ToolCall,
  Usage,
} from "./types.js";

/** The delta of a choice that has none (shared: never written). */
const NO_DELTA: NonNullable<ChatCompletionChunk["choices"][number]["delta"]> = {};

/** Content deltas joined into one piece at a time (see `ChoiceState.recent`). */
const PIECE = 128;

interface ChoiceState {
  /**
   * The content so far, in pieces of {@link PIECE} deltas, joined once by `completion()`.
   * Keeping each of 100k deltas alive until the end (an old array pointing at young strings)
   * was a sixth of a long stream's cost; a piece's deltas die young.
   */
  content: string[];
  /** The latest deltas, not yet joined into a piece. */
  recent: string[];
  sawContent: boolean;
  refusal: string | null;
  finishReason: string | null;
  toolCalls: Map<number, ToolCall>;
}

/**
 * Builds a `ChatCompletion` from stream chunks: joins content per choice, assembles tool
 * calls from their deltas (by `index`: the first delta carries id and name, later ones
 * append to `arguments`), and keeps the usage of the last chunk that has one.
 */
export class ChatCompletionAccumulator {
  #id = "";
  #model = "";
  #created = 0;
  #usage: Usage | undefined;
  #choices = new Map<number, ChoiceState>();
  #extra: Record<string, unknown> = {};

  /** Adds one chunk. */
  add(chunk: ChatCompletionChunk): void {
    if (chunk.id) this.#id = chunk.id;
    if (chunk.model) this.#model = chunk.model;
    if (typeof chunk.created === "number") this.#created = chunk.created;
    if (chunk.usage) this.#usage = chunk.usage;
    if (typeof chunk.system_fingerprint === "string")
      this.#extra.system_fingerprint = chunk.system_fingerprint;
    const choices = chunk.choices ?? [];
    for (let c = 0; c < choices.length; c++) {
      const choice = choices[c] as (typeof choices)[number];
      let state = this.#choices.get(choice.index);
      if (!state) {
        state = {
          content: [],
          recent: [],
          sawContent: false,
          refusal: null,
          finishReason: null,
          toolCalls: new Map(),
        };
        this.#choices.set(choice.index, state);
      }
      const delta = choice.delta ?? NO_DELTA;
      if (typeof delta.content === "string") {
        state.recent.push(delta.content);
        if (state.recent.length === PIECE) {
          state.content.push(state.recent.join(""));
          state.recent = [];
        }
        state.sawContent = true;
      }
      if (typeof delta.refusal === "string") state.refusal = (state.refusal ?? "") + delta.refusal;
      // Indexed loops, no empty array for a chunk without tool calls: this runs per chunk.
      const parts = delta.tool_calls;
      for (let p = 0; Array.isArray(parts) && p < parts.length; p++) {
        const part = parts[p] as (typeof parts)[number];
        const index = typeof part.index === "number" ? part.index : state.toolCalls.size;
        let call = state.toolCalls.get(index);
        if (!call) {
          call = { id: "", type: "function", function: { name: "", arguments: "" } };
          state.toolCalls.set(index, call);
        }
        if (part.id) call.id = part.id;
        // Some servers repeat the whole name in every delta; others split it in pieces.
        const name = part.function?.name;
        if (name && name !== call.function.name) call.function.name += name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
    }
  }

  /** True once some choice has a finish reason. */
  get finished(): boolean {
    for (const state of this.#choices.values()) if (state.finishReason) return true;
    return false;
  }

  /** The completion assembled so far. */
  completion(): ChatCompletion {
    const choices: ChatCompletionChoice[] = [...this.#choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => {
        const message: AssistantMessage = {
          role: "assistant",
          content:
            state.sawContent || state.toolCalls.size === 0
              ? state.content.join("") + state.recent.join("")
              : null,
        };
        if (state.refusal !== null) message.refusal = state.refusal;
        if (state.toolCalls.size > 0) {
          message.tool_calls = [...state.toolCalls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, call]) => call);
        }
        return { index, message, finish_reason: state.finishReason };
      });
    const completion: ChatCompletion = {
      id: this.#id,
      object: "chat.completion",
      created: this.#created,
      model: this.#model,
      choices,
      ...this.#extra,
    };
    if (this.#usage) completion.usage = this.#usage;
    return completion;
  }
}
