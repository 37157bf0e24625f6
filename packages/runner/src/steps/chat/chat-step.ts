import {
  type ChatCompletion,
  type ChatMessage,
  type ContentPart,
  clientForModel,
  type ReelsmithClient,
  type RunnableTool,
  type Usage,
} from "@reelsmith/core";
import { SubPipelineDepthError } from "../../errors/sub-pipeline-depth-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import { parseDuration } from "../../executor/parse-duration.js";
import { checkedImagePart } from "../../files/image-file.js";
import type { StepRunContext } from "../step-kind.js";
import type { ChatStepSpec } from "./chat-schema.js";
import { runToolCommand } from "./tool-command.js";

const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

async function messagesOf(spec: ChatStepSpec, pipelineDir: string): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = Array.isArray(spec.messages)
    ? (structuredClone(spec.messages) as ChatMessage[])
    : [];
  if (spec.system !== undefined) messages.unshift({ role: "system", content: String(spec.system) });
  if (spec.prompt !== undefined) messages.push({ role: "user", content: String(spec.prompt) });
  const images = Array.isArray(spec.images) ? spec.images : [];
  if (images.length > 0) {
    const parts: ContentPart[] = [];
    for (const image of images) {
      const value = String(image);
      parts.push(await checkedImagePart(value, pipelineDir));
    }
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    if (lastUser && lastUser.role === "user") {
      const text =
        typeof lastUser.content === "string"
          ? [{ type: "text" as const, text: lastUser.content }]
          : lastUser.content;
      lastUser.content = [...text, ...parts];
    } else {
      messages.push({ role: "user", content: parts });
    }
  }
  return messages;
}

function toolChoiceOf(choice: ChatStepSpec["tool_choice"]): unknown {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") {
    return ["auto", "none", "required"].includes(choice)
      ? choice
      : { type: "function", function: { name: choice } };
  }
  if ("name" in choice) return { type: "function", function: { name: choice.name } };
  return choice;
}

function toolsOf(
  spec: ChatStepSpec,
  context: StepRunContext,
  pipelineDir: string,
  onFatal: (error: SubPipelineDepthError) => void,
): RunnableTool[] {
  const extras = executionExtras(context);
  return (spec.tools ?? []).map((tool) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    parameters: (tool.parameters as Record<string, unknown>) ?? { type: "object", properties: {} },
    execute: async (args, call) => {
      const signal = call.signal ?? context.signal;
      const timeoutMs = parseDuration(tool.timeout) ?? DEFAULT_TOOL_TIMEOUT_MS;
      if (tool.run) return runToolCommand(tool.run, args, { cwd: pipelineDir, timeoutMs, signal });
      if (tool.pipeline) {
        if (!extras) throw new Error("pipeline tools need the runner's executor");
        const inputs = args && typeof args === "object" ? (args as Record<string, unknown>) : {};
        try {
          return await extras.runSubPipeline(tool.pipeline, inputs, {
            signal,
            name: `${context.stepId}-${tool.name}`,
          });
        } catch (error) {
          // Runaway nesting ends the step; any other failure is the model's to handle.
          if (SubPipelineDepthError.isInstance(error)) onFatal(error);
          throw error;
        }
      }
      throw new Error(`tool ${tool.name} has neither run: nor pipeline:`);
    },
  }));
}

/**
 * Runs one chat step: `messages` or `system`/`prompt`, local `images` as data URIs,
 * `stream` (chat.delta events), `json`/`schema` (validated, re-asked), and `tools`
 * (`run:` commands or sub-pipelines) in a loop of at most `max_tool_rounds`.
 * Outputs: text, json (when JSON), usage, messages.
 * @example const { text } = await runChatStep({ model: "reel-chat-1", prompt: "Hi" }, context);
 */
export async function runChatStep(
  spec: ChatStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const client = clientForModel(context.client as ReelsmithClient, String(spec.model ?? ""));
  const pipelineDir = executionExtras(context)?.pipelineDir ?? process.cwd();
  const messages = await messagesOf(spec, pipelineDir);
  const request: { model: string; messages: ChatMessage[]; [field: string]: unknown } = {
    model: String(spec.model ?? ""),
    messages,
  };
  for (const field of ["temperature", "top_p", "max_tokens", "stop"] as const) {
    if (spec[field] !== undefined) request[field] = spec[field];
  }
  const toolChoice = toolChoiceOf(spec.tool_choice);
  if (toolChoice !== undefined) request.tool_choice = toolChoice;
  const options = { signal: context.signal };
  let completion: ChatCompletion;
  let history: ChatMessage[];
  let usage: Usage | undefined;
  let json: unknown;
  if (spec.tools && spec.tools.length > 0) {
    const stop = new AbortController();
    let fatal: SubPipelineDepthError | undefined;
    const onFatal = (error: SubPipelineDepthError) => {
      fatal = error;
      stop.abort(error);
    };
    let result: Awaited<ReturnType<typeof client.chat.runTools>>;
    try {
      result = await client.chat.runTools(
        {
          ...request,
          messages,
          tools: toolsOf(spec, context, pipelineDir, onFatal),
          ...(spec.max_tool_rounds ? { maxRounds: spec.max_tool_rounds } : {}),
        },
        { signal: AbortSignal.any([context.signal, stop.signal]) },
      );
    } catch (error) {
      throw fatal ?? error;
    }
    ({ completion, messages: history, usage } = result);
  } else if (spec.json || spec.schema) {
    const result = await client.chat.json(
      {
        ...request,
        messages,
        ...(spec.schema ? { schema: spec.schema } : {}),
        ...(spec.json_attempts ? { maxAttempts: spec.json_attempts } : {}),
      },
      options,
    );
    ({ completion, messages: history, usage } = result);
    json = result.data;
  } else if (spec.stream) {
    const stream = await client.chat.completions.create(
      { ...request, messages, stream: true, stream_options: { include_usage: true } } as Parameters<
        typeof client.chat.completions.create
      >[0] & { stream: true },
      options,
    );
    for await (const chunk of stream) {
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) context.progress("delta", { stage: "text", text });
    }
    completion = await stream.finalCompletion();
    usage = completion.usage;
    history = [...messages, completion.choices[0]?.message as ChatMessage];
  } else {
    completion = await client.chat.completions.create(
      { ...request, messages } as Parameters<typeof client.chat.completions.create>[0] & {
        stream?: false;
      },
      options,
    );
    usage = completion.usage;
    history = [...messages, completion.choices[0]?.message as ChatMessage];
  }
  const text = completion.choices[0]?.message?.content ?? "";
  if (usage) context.progress("usage", { stage: "usage", usage });
  return {
    text,
    ...(json !== undefined ? { json } : {}),
    usage: usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    messages: history,
  };
}
