import type { RandomSource } from "../util/seeded-random.js";
import { pick } from "../util/seeded-random.js";
import type { ChatMessage } from "./chat-types.js";
import type { ToolResult } from "./choose-tool.js";
import { describeImage } from "./describe-image.js";
import { firstWords, keywordsOf, splitSentences } from "./text-analysis.js";
import { textOf } from "./validate-chat-request.js";

const openers = [
  "Here is my take.",
  "Good question.",
  "Let me think about that.",
  "Sure.",
  "Happy to help.",
  "Certainly.",
];
const closers = [
  "Let me know if you want more detail.",
  "I hope that helps.",
  "Tell me if you would like a different angle.",
  "Ask again if anything is unclear.",
  "That is the short version.",
];

function listWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function compact(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

/**
 * The text reply of the deterministic model: it restates the last user message, describes its
 * images, uses tool results when present, and refers back to earlier turns, with wording chosen
 * by `random` (seeded from the whole request).
 *
 * @example
 * composeText(messages, [], createSeededRandom(0, messages)); // "Sure. You asked: “…” …"
 */
export function composeText(
  messages: ChatMessage[],
  toolResults: ToolResult[],
  random: RandomSource,
): string {
  const userMessages = messages.filter((message) => message.role === "user");
  const last = userMessages[userMessages.length - 1];
  const lastText = last ? textOf(last.content) : "";
  const parts: string[] = [];

  if (toolResults.length > 0) {
    const used = toolResults.map(
      (result) => `${result.name} returned ${compact(result.content, 300)}`,
    );
    parts.push(`Using the tool results: ${used.join("; ")}.`);
    const question = splitSentences(lastText)[0];
    if (question)
      parts.push(`So, to answer “${firstWords(question, 20)}”: the result above is the answer.`);
    parts.push(pick(random, closers));
    return parts.join(" ");
  }

  parts.push(pick(random, openers));
  const images = Array.isArray(last?.content)
    ? last.content.filter((part) => part.type === "image_url")
    : [];
  images.forEach((part, index) => {
    if (part.type === "image_url") parts.push(describeImage(part.image_url.url, index + 1));
  });
  const sentences = splitSentences(lastText);
  if (sentences.length > 0) parts.push(`You asked: “${firstWords(sentences.join(" "), 40)}”`);
  const keywords = keywordsOf(lastText).slice(0, 5);
  if (keywords.length > 0) {
    parts.push(
      pick(random, ["The key ideas are", "What matters most here is", "I would focus on"]) +
        ` ${listWords(keywords)}.`,
    );
  }
  if (sentences.length > 1) {
    parts.push(`In short: ${sentences[sentences.length - 1]}`);
  }
  const system = messages.find(
    (message) => message.role === "system" || message.role === "developer",
  );
  if (system)
    parts.push(`As instructed (“${firstWords(textOf(system.content), 8)}”), I kept to that brief.`);
  if (userMessages.length > 1) {
    const first = textOf(userMessages[0]?.content ?? "");
    parts.push(
      `This builds on turn 1, where you said “${firstWords(first, 10)}”, and is turn ${userMessages.length} of our conversation.`,
    );
  }
  parts.push(pick(random, closers));
  return parts.join(" ");
}
