import { jsonSchemaProblem } from "../../pipeline/standalone-validators.js";
import type { CheckContext } from "../step-kind.js";
import type { ChatStepSpec } from "./chat-schema.js";

const MAX_STOP_SEQUENCES = 4;
const BUILT_IN_CHOICES = new Set(["auto", "none", "required"]);

function toolChoiceName(choice: ChatStepSpec["tool_choice"]): string | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return BUILT_IN_CHOICES.has(choice) ? undefined : choice;
  if ("function" in choice) return choice.function.name;
  return choice.name;
}

function checkRange(
  spec: ChatStepSpec,
  field: "temperature" | "top_p",
  maximum: number,
  context: CheckContext,
): void {
  const value = spec[field];
  if (typeof value === "number" && (value < 0 || value > maximum)) {
    context.report([field], `${field} must be between 0 and ${maximum}, got ${value}`);
  }
}

/**
 * Static checks of a chat step: prompt or messages, stop count, sampling ranges,
 * tools and tool_choice, a compilable response schema.
 *
 * @example
 * ```ts
 * checkChatStep({ prompt: "hi", stop: ["a", "b", "c", "d", "e"] }, context); // reports ["stop"]
 * ```
 */
export function checkChatStep(spec: ChatStepSpec, context: CheckContext): void {
  if (spec.prompt === undefined && spec.messages === undefined) {
    context.report([], "a chat step needs `prompt` or `messages`", { code: "chat_no_prompt" });
  }
  if (spec.model === undefined) {
    context.report([], "no chat model: set `model` here or `defaults.chat.model`", {
      code: "chat_no_model",
    });
  }
  if (Array.isArray(spec.stop) && spec.stop.length > MAX_STOP_SEQUENCES) {
    context.report(
      ["stop"],
      `at most ${MAX_STOP_SEQUENCES} stop sequences are allowed, got ${spec.stop.length}`,
      {
        code: "chat_too_many_stops",
      },
    );
  }
  checkRange(spec, "temperature", 2, context);
  checkRange(spec, "top_p", 1, context);
  const tools = spec.tools ?? [];
  const names = new Set<string>();
  tools.forEach((tool, index) => {
    if (names.has(tool.name)) {
      context.report(["tools", index, "name"], `tool \`${tool.name}\` is defined twice`, {
        code: "chat_duplicate_tool",
      });
    }
    names.add(tool.name);
    if ((tool.run === undefined) === (tool.pipeline === undefined)) {
      context.report(
        ["tools", index],
        `tool \`${tool.name}\` needs exactly one implementation: \`run\` or \`pipeline\``,
        {
          code: "chat_tool_implementation",
        },
      );
    }
  });
  const chosen = toolChoiceName(spec.tool_choice);
  if (chosen !== undefined && !names.has(chosen)) {
    const known = [...names].map((name) => `\`${name}\``).join(", ");
    context.report(
      ["tool_choice"],
      `tool_choice names \`${chosen}\`, which is not a defined tool`,
      {
        code: "chat_unknown_tool_choice",
        hint: known
          ? `defined tools: ${known}`
          : "this step defines no tools; use auto, none or required",
      },
    );
  }
  if (spec.schema !== undefined && context.isLiteral(spec.schema)) {
    const reason = jsonSchemaProblem(spec.schema);
    if (reason !== undefined) {
      context.report(["schema"], `schema is not a valid JSON Schema: ${reason}`, {
        code: "chat_invalid_schema",
      });
    }
  }
}
