import type { ChatMessage } from "../chat/types.js";
import { ReelsmithError } from "./reelsmith-error.js";

/**
 * `chat.runTools()` reached `maxRounds` while the model still asked for tool calls.
 * `messages` holds the whole conversation so far (the last one asks for tools).
 *
 * @example
 * ```ts
 * catch (error) { if (ToolRoundsExceededError.isInstance(error)) console.error(error.rounds); }
 * ```
 */
export class ToolRoundsExceededError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.ToolRoundsExceededError");
  readonly rounds: number;
  readonly messages: ChatMessage[];
  constructor(rounds: number, messages: ChatMessage[]) {
    super(`The model still asked for tool calls after ${rounds} rounds (maxRounds).`, {
      code: "tool_rounds_exceeded",
      isRetryable: false,
    });
    this.rounds = rounds;
    this.messages = messages;
  }
}
