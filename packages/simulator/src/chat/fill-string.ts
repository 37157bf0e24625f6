import { createHash } from "node:crypto";
import type { JsonSchema } from "./chat-types.js";
import type { FillSource } from "./fill-source.js";
import { quoted, sceneTitle, storyOf, storyTitle } from "./story-text.js";
import { identifierWords, splitSentences, stopWords, wordsOf } from "./text-analysis.js";

const colours = ["amber", "teal", "crimson", "indigo", "olive", "ivory", "slate", "coral"];
const moods = ["calm", "hopeful", "tense", "joyful", "mysterious", "warm", "melancholic", "bright"];

function place(text: string): string | undefined {
  const words = text.match(/\b[A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)*/gu) ?? [];
  const first = text.trim().split(/\s+/)[0];
  const candidates = words.filter(
    (word) => word !== first && word !== "I" && !stopWords.has(word.toLowerCase()),
  );
  if (candidates[0]) return candidates[0];
  const after = /\b(?:in|at|to|for|near|from)\s+([\p{L}'-]+(?:\s+[\p{L}'-]+)?)/iu.exec(text);
  return after?.[1];
}

function slug(text: string): string {
  return (
    wordsOf(text)
      .filter((word) => !stopWords.has(word))
      .slice(0, 5)
      .join("-") || "item"
  );
}

function fitLength(value: string, schema: JsonSchema, source: FillSource): string {
  let text = value;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (text.length < min) {
    const filler =
      splitSentences(source.whole).join(" ") || "More detail follows from the request.";
    const times = Math.ceil((min - text.length) / (filler.length + 1));
    text = [text, ...Array.from({ length: times }, () => filler)].join(" ").trim();
  }
  if (text.length > max) {
    const cut = text.slice(0, max);
    const space = cut.lastIndexOf(" ");
    // Cut at a word's end when that keeps at least half the room and `minLength`.
    text = space > max / 2 && space >= min ? cut.slice(0, space) : cut;
  }
  return text;
}

/**
 * A string for a property, chosen by its format and name: titles get a few words, places a
 * capitalised name from the text, free text the sentences of the focus; length bounds honoured.
 *
 * @example
 * stringFor({ type: "string" }, { focus: "A fox finds a lantern in the snow.", whole: "…", key: "title", description: "" }); // "The Fox"
 */
export function stringFor(schema: JsonSchema, source: FillSource): string {
  const key = [
    ...identifierWords(source.key),
    ...identifierWords(source.description).slice(0, 6),
  ].join(" ");
  const focus =
    source.beat?.text ?? (source.focus === source.whole ? storyOf(source.whole) : source.focus);
  const digest = createHash("sha256").update(`${source.key}\u0000${focus}`).digest();
  let value: string;
  switch (schema.format) {
    case "date-time":
      value = "2026-01-01T00:00:00Z";
      break;
    case "date":
      value = "2026-01-01";
      break;
    case "time":
      value = "00:00:00";
      break;
    case "email":
      value = `${slug(focus)}@example.com`;
      break;
    case "uri":
    case "url":
      value = `https://example.com/${slug(focus)}`;
      break;
    case "uuid": {
      const hex = digest.toString("hex");
      value = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
      break;
    }
    default:
      value = byName(key, focus, source, digest[0] ?? 0);
  }
  return fitLength(value, schema, source);
}

function byName(key: string, focus: string, source: FillSource, byte: number): string {
  const whole = source.whole;
  if (/\b(?:city|location|place|country|town|destination|region|where|address)\b/.test(key)) {
    return quoted(whole) ?? place(storyOf(whole)) ?? focus;
  }
  if (/\b(?:title|name|heading|label|caption|headline|subject)\b/.test(key))
    return (
      source.beat?.title ??
      quoted(focus) ??
      (focus === storyOf(whole) ? storyTitle(focus) : sceneTitle(splitSentences(focus)[0] ?? focus))
    );
  if (/\b(?:id|slug|key)\b/.test(key)) return slug(focus);
  if (/\b(?:colou?r)\b/.test(key)) return colours[byte % colours.length] ?? "amber";
  if (/\b(?:mood|tone|emotion|feeling)\b/.test(key)) return moods[byte % moods.length] ?? "calm";
  if (/\b(?:language|lang|locale)\b/.test(key)) return "en";
  if (
    /\b(?:query|search|question|input|prompt|text|message|content|description|summary|topic)\b/.test(
      key,
    )
  ) {
    return (source.beat ? undefined : quoted(focus)) ?? focus;
  }
  return focus;
}
