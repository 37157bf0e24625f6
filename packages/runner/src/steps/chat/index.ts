import type { StepKindDefinition } from "../step-kind.js";
import { checkChatStep } from "./chat-check.js";
import { ChatStepSchema, type ChatStepSpec } from "./chat-schema.js";

export * from "./chat-check.js";
export * from "./chat-schema.js";

/**
 * The `chat` kind as the pipeline sees it: its body schema and static checks.
 *
 * @example
 * ```ts
 * chatDefinition.kind; // "chat"
 * ```
 */
export const chatDefinition: StepKindDefinition<ChatStepSpec> = {
  kind: "chat",
  schema: ChatStepSchema,
  check: checkChatStep,
};
