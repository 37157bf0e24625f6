import { defineStepKind, loadOnce } from "../define-step-kind.js";
import { checkChatStep } from "./chat-check.js";
import { chatFiles } from "./chat-files.js";
import { chatConditionalOutputs, chatOutputTypes } from "./chat-outputs.js";
import type { ChatStepSpec } from "./chat-schema.js";

/** Its `run` (and request check), loaded on first use. */
const chatStep = loadOnce(() => import("./chat-step.js"));

export * from "./chat-check.js";

function callsSubPipelines(tools: unknown): boolean {
  if (tools === undefined) return false;
  if (!Array.isArray(tools)) return true;
  return tools.some((tool) => !tool || typeof tool !== "object" || "pipeline" in tool);
}

export type { ChatStepSpec } from "./chat-schema.js";

/**
 * The `chat` step kind: a chat completion (JSON mode, images, a tool-call loop whose tools
 * may be commands or sub-pipelines). Its schema and its `run` load on first use.
 *
 * @example
 * ```ts
 * chatKind.outputs({ prompt: "hi" }); // text, json, usage, messages
 * ```
 */
export const chatKind = defineStepKind<ChatStepSpec>({
  kind: "chat",
  schema: async () => (await import("./chat-schema.js")).ChatStepSchema,
  defaultsSchema: async () => (await import("./chat-schema.js")).ChatDefaultsSchema,
  queue: "chat",
  phases: { delta: "text", usage: "usage" },
  outputs: chatOutputTypes,
  conditionalOutputs: chatConditionalOutputs,
  outputHints: {
    text: "a chat step's `text` is a string: ask for JSON with `schema:` (an array to fan out over) and read `steps.<id>.outputs.json`",
  },
  check: checkChatStep,
  files: chatFiles,
  // Its outputs are texts; tools' commands write where they run, not in the run directory.
  writes: () => [],
  models: [{ field: "model", catalog: "chat_models" }],
  // Chats are paid in tokens, not credits; a tool that runs a sub-pipeline may spend credits
  // the plan cannot know (how often the model calls it).
  plan: (known) => ({
    requests: { chatRequests: 1 },
    ...(callsSubPipelines(known.tools) ? {} : { credits: 0 }),
  }),
  requestLabels: { chatRequests: "chat requests" },
  summary: (spec) =>
    `${spec.model ?? ""}: ${String(spec.prompt ?? spec.system ?? "")
      .replace(/\s+/g, " ")
      .slice(0, 60)}`,
  cache: { inputFiles: { images: "value" } },
  report: { role: "conversation", work: "chat" },
  run: async (spec, context) => (await chatStep()).runChatStep(spec, context),
});
