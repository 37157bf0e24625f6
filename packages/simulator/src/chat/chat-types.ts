import type { ChatModelInfo } from "../catalog/chat-models.js";

/** A JSON Schema, loosely typed. */
export type JsonSchema = Record<string, unknown>;

/** A content part of a message (spec 2.5). */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** A tool call made by the assistant. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A checked request message. */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** A tool offered by the caller (spec 2.6). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** `response_format`, normalised. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: JsonSchema };

/** A checked `POST /v1/chat/completions` body. */
export interface ChatRequest {
  model: ChatModelInfo;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  temperature: number;
  topP: number;
  maxTokens: number | undefined;
  stop: string[];
  tools: ToolDefinition[];
  toolChoice: "auto" | "none" | "required" | { name: string };
  responseFormat: ResponseFormat;
  seed: number | undefined;
}

/** The assistant's answer before it is shaped into a completion or a stream. */
export interface ChatReply {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: "stop" | "length" | "tool_calls";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
