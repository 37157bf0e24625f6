import type { Ajv, ValidateFunction } from "ajv";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { ToolRoundsExceededError } from "../errors/tool-rounds-exceeded-error.js";
import type { RequestOptions } from "../http/request-options.js";
import { compileSchema } from "./compile-schema.js";
import type { ChatCompletions } from "./completions.js";
import type {
  ChatCompletion,
  ChatCompletionRequestFields,
  ChatMessage,
  JSONSchema,
  ToolCall,
  ToolMessage,
  Usage,
} from "./types.js";
import { addUsage, emptyUsage } from "./usage.js";

/** A tool the client runs for the model. */
export interface RunnableTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (`type: "object"`); arguments are checked against it. */
  parameters: JSONSchema;
  /** Runs the tool. The return value goes back as the tool result (strings as-is, else JSON). */
  execute(
    args: unknown,
    context: { signal?: AbortSignal; callId: string },
  ): unknown | Promise<unknown>;
}

/** Parameters of `chat.runTools()`. */
export type RunToolsParams = Omit<
  ChatCompletionRequestFields,
  "stream" | "stream_options" | "tools"
> & {
  [key: string]: unknown;
  tools: RunnableTool[];
  /** Model requests in all (default 10). Reaching it with tool calls pending throws ToolRoundsExceededError. */
  maxRounds?: number;
  /** Called after each round's tool results are appended. */
  onRound?: (info: { round: number; calls: ToolCall[]; results: ToolMessage[] }) => void;
};

/** Result of `chat.runTools()`. */
export interface RunToolsResult {
  completion: ChatCompletion;
  messages: ChatMessage[];
  usage: Usage;
  rounds: number;
}

function stringifyResult(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

async function runCall(
  call: ToolCall,
  tools: Map<string, { tool: RunnableTool; validate: ValidateFunction | undefined }>,
  signal: AbortSignal | undefined,
): Promise<string> {
  const entry = tools.get(call.function.name);
  if (!entry) {
    return `Error: unknown tool ${JSON.stringify(call.function.name)}. Available tools: ${[...tools.keys()].join(", ")}.`;
  }
  let args: unknown;
  try {
    // Some OpenAI-compatible servers leave `arguments` out for a call without any.
    const text = typeof call.function.arguments === "string" ? call.function.arguments : "";
    args = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return `Error: the arguments are not valid JSON (${(error as Error).message}).`;
  }
  if (entry.validate && !entry.validate(args)) {
    const problems = (entry.validate.errors ?? []).map(
      (error) =>
        `${error.instancePath === "" ? "(root)" : error.instancePath} ${error.message ?? "is invalid"}`,
    );
    return `Error: invalid arguments: ${problems.join("; ")}.`;
  }
  try {
    const context: { signal?: AbortSignal; callId: string } = { callId: call.id };
    if (signal) context.signal = signal;
    return stringifyResult(await entry.tool.execute(args, context));
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
    return `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Runs the tool-call loop behind `client.chat.runTools()`. */
export async function runTools(
  completions: ChatCompletions,
  ajv: Ajv,
  params: RunToolsParams,
  options: RequestOptions = {},
): Promise<RunToolsResult> {
  const { tools, maxRounds = 10, onRound, ...rest } = params;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new TypeError(
      `Expected \`maxRounds\` to be a whole number >= 1, got ${String(maxRounds)}`,
    );
  }
  const byName = new Map<string, { tool: RunnableTool; validate: ValidateFunction | undefined }>();
  if (!Array.isArray(tools))
    throw new InvalidRequestError("tools", "tools: expected an array of runnable tools");
  tools.forEach((tool, index) => {
    if (!tool || typeof tool.name !== "string" || typeof tool.execute !== "function") {
      throw new InvalidRequestError(
        `tools[${index}]`,
        `tools[${index}]: expected { name, parameters, execute }`,
      );
    }
    const validate = tool.parameters
      ? compileSchema(ajv, tool.parameters, `tools[${index}].parameters`)
      : undefined;
    byName.set(tool.name, { tool, validate });
  });
  const definitions = tools.map((tool) => ({
    type: "function" as const,
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
    },
  }));
  const messages: ChatMessage[] = [...(rest.messages ?? [])];
  const usage = emptyUsage();
  for (let round = 1; ; round++) {
    const completion = await completions.create(
      { ...rest, messages, tools: definitions, stream: false },
      options,
    );
    addUsage(usage, completion.usage);
    const message = completion.choices[0]?.message ?? { role: "assistant" as const, content: "" };
    // A call without an id (some compatible servers send none) gets one, so that its result
    // can name it; the assistant message sent back carries the same ids.
    const calls = (message.tool_calls ?? []).map((call, index) => ({
      ...call,
      type: call.type ?? ("function" as const),
      id: typeof call.id === "string" && call.id !== "" ? call.id : `call_${round}_${index}`,
    }));
    // The reply goes back as the assistant's turn, even from a server that left `role` out.
    const turn = { ...message, role: "assistant" as const };
    messages.push(calls.length > 0 ? { ...turn, tool_calls: calls } : turn);
    if (calls.length === 0) return { completion, messages, usage, rounds: round };
    if (round >= maxRounds) throw new ToolRoundsExceededError(round, messages);
    const outputs = await Promise.all(calls.map((call) => runCall(call, byName, options.signal)));
    if (options.signal?.aborted)
      throw new APIUserAbortError(undefined, { cause: options.signal.reason });
    const results: ToolMessage[] = calls.map((call, index) => ({
      role: "tool",
      tool_call_id: call.id,
      content: outputs[index]!,
    }));
    messages.push(...results);
    onRound?.({ round, calls, results });
  }
}
