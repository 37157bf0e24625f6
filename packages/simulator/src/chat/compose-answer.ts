import type { RandomSource } from "../util/seeded-random.js";
import { pick } from "../util/seeded-random.js";
import type { ChatMessage } from "./chat-types.js";
import type { ToolResult } from "./choose-tool.js";
import { composeText } from "./compose-text.js";
import { describeImage } from "./describe-image.js";
import { isInstruction, storyOf, storyTitle } from "./story-text.js";
import { keywordsOf, splitSentences } from "./text-analysis.js";
import { textOf } from "./validate-chat-request.js";

function listWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

const questionLines = [
  "The short answer is that it comes down to the basics; the details follow from them.",
  "It depends on the situation, but the usual reason is the simplest one.",
  "In most cases the plain explanation is the right one, and it holds up well.",
];
const taskLines = [
  "Start simple, keep each part concrete, and check the result before adding more.",
  "Keep it short and vivid; one clear idea per part works best.",
  "A small first version is best: settle the basics, then add detail.",
];

/**
 * The reply of the plausible model (the default): a title when a title is asked for, a short
 * summary of the story when a summary is, else a brief answer about the request's subject;
 * images described, tool results used, earlier turns referred to. Never repeats the prompt.
 *
 * @example
 * composeAnswer([{ role: "user", content: "Give this story a short title: A fox finds a lantern in the snow." }], [], random);
 * // "The Fox"
 */
export function composeAnswer(
  messages: ChatMessage[],
  toolResults: ToolResult[],
  random: RandomSource,
): string {
  if (toolResults.length > 0) return composeText(messages, toolResults, random);
  const users = messages.filter((message) => message.role === "user");
  const last = users[users.length - 1];
  const lastText = last ? textOf(last.content) : "";
  const system = messages
    .filter((message) => message.role === "system" || message.role === "developer")
    .map((message) => textOf(message.content))
    .join(" ");
  const sentences = splitSentences(lastText);
  const asked = sentences
    .filter(isInstruction)
    .map((sentence) => sentence.split(":")[0])
    .join(" ");
  const story = storyOf(lastText);
  const told = splitSentences(story);

  if (/\btitles?\b/i.test(asked) || (/\btitles?\b/i.test(system) && told.length > 0)) {
    return storyTitle(story || lastText);
  }
  const parts: string[] = [];
  const images = Array.isArray(last?.content)
    ? last.content.filter((part) => part.type === "image_url")
    : [];
  images.forEach((part, index) => {
    if (part.type === "image_url") parts.push(describeImage(part.image_url.url, index + 1));
  });
  if (/\b(?:summar|sum up|synopsis|logline|in one sentence|tl;?dr)/i.test(`${asked} ${system}`)) {
    parts.push(told.length > 1 ? `${told[0]} ${told[told.length - 1]}` : (told[0] ?? ""));
    return parts.filter(Boolean).join(" ");
  }
  const keywords = keywordsOf(story || lastText)
    .filter((word) => !isInstruction(word))
    .slice(0, 3);
  if (keywords.length === 0) {
    parts.push("Happy to help. Tell me a little more about what you need.");
  } else if (/\?\s*$/.test(lastText.trim())) {
    parts.push(`Good question about ${listWords(keywords)}.`, pick(random, questionLines));
  } else {
    parts.push(`Here is how I would approach ${listWords(keywords)}.`, pick(random, taskLines));
  }
  if (users.length > 1) {
    const earlier = keywordsOf(textOf(users[0]?.content ?? "")).slice(0, 2);
    if (earlier.length > 0)
      parts.push(`This follows on from what we said about ${listWords(earlier)}.`);
  }
  return parts.join(" ");
}
