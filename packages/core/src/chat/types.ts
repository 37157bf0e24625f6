/** A JSON Schema object (as accepted by ajv and by tool `parameters`). */
export type JSONSchema = Record<string, unknown>;

/** `{ type: "text", text }` content part. */
export interface TextContentPart {
  type: "text";
  text: string;
}

/** `{ type: "image_url", image_url: { url } }`: an http(s) address or a `data:` URI. */
export interface ImageContentPart {
  type: "image_url";
  image_url: { url: string; detail?: "auto" | "low" | "high" };
}

export type ContentPart = TextContentPart | ImageContentPart;

/** A tool call requested by the model (in an assistant message). */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: "system";
  content: string | TextContentPart[];
  name?: string;
}
export interface UserMessage {
  role: "user";
  content: string | ContentPart[];
  name?: string;
}
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
  name?: string;
  refusal?: string | null;
}
export interface ToolMessage {
  role: "tool";
  content: string;
  tool_call_id: string;
}

/** A message of the conversation (spec 2.5, plus OpenAI-compatible tool messages). */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A function tool definition (spec 2.6). */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: JSONSchema; strict?: boolean };
}

export type ToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

/** The known fields of a chat request (spec 4.4). */
export interface ChatCompletionRequestFields {
  model: string;
  messages: ChatMessage[];
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  stop?: string | string[] | null;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  response_format?: { type: "text" | "json_object" | "json_schema"; [key: string]: unknown };
  n?: number | null;
  seed?: number | null;
  user?: string;
}

/** Request body of `POST /v1/chat/completions` (spec 4.4). Unknown extra fields are sent as given. */
export type ChatCompletionCreateParams = ChatCompletionRequestFields & { [key: string]: unknown };

export type ChatCompletionCreateParamsNonStreaming = ChatCompletionCreateParams & {
  stream?: false | null;
};
export type ChatCompletionCreateParamsStreaming = ChatCompletionCreateParams & { stream: true };

/** Token counts of a completion. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [key: string]: unknown;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | (string & {});

export interface ChatCompletionChoice {
  index: number;
  message: AssistantMessage;
  finish_reason: FinishReason | null;
  [key: string]: unknown;
}

/** A non-streamed chat completion (spec 2.4). */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: Usage;
  [key: string]: unknown;
}

/** A tool-call fragment inside a stream delta; `index` says which call it extends. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunkChoice {
  index: number;
  delta: {
    role?: "assistant";
    content?: string | null;
    tool_calls?: ToolCallDelta[];
    refusal?: string | null;
  };
  finish_reason?: FinishReason | null;
  [key: string]: unknown;
}

/** One SSE chunk (spec 2.7). The usage-only last chunk has `choices: []`. */
export interface ChatCompletionChunk {
  id: string;
  object?: "chat.completion.chunk";
  created?: number;
  model?: string;
  choices: ChatCompletionChunkChoice[];
  usage?: Usage | null;
  [key: string]: unknown;
}
