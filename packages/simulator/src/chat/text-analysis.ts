const numberWords: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  a: 1,
  an: 1,
  single: 1,
  pair: 2,
  couple: 2,
  dozen: 12,
};

/** Words too common to say anything about a request. */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then of to in on at by for with from into onto about as is are was were be been " +
    "being it its this that these those i me my we our you your he she they them their what which who whom " +
    "how when where why do does did can could would should will shall may might must please tell give get " +
    "make show let us some any all each more most other such no not only own same so than too very just " +
    "now here there up down out over under again also use using via per"
  ).split(" "),
);

/**
 * Split text into sentences (on `.`, `!`, `?` and line breaks), trimmed, none empty.
 *
 * @example
 * splitSentences("A fox runs. It jumps!"); // ["A fox runs.", "It jumps!"]
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/**
 * The material of a request: what follows the instruction's colon when the first sentence has one
 * ("Split this story into 3 scenes: …" → the story), else the whole text.
 *
 * @example
 * materialOf("Split this into 2 scenes: A fox runs. It jumps."); // "A fox runs. It jumps."
 */
export function materialOf(text: string): string {
  const first = splitSentences(text)[0] ?? "";
  const colon = first.indexOf(":");
  if (colon > 0) {
    const start = text.indexOf(":") + 1;
    const rest = text.slice(start).trim();
    if (/[\p{L}\p{N}]/u.test(rest)) return rest;
  }
  return text.trim();
}

/** Lower-case words (letters and digits) of `text`. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words (no stop words, at least 3 letters), de-duplicated, in order. */
export function keywordsOf(text: string): string[] {
  return [...new Set(wordsOf(text).filter((word) => word.length >= 3 && !stopWords.has(word)))];
}

/** A number found in text, with the word right after it ("3 scenes" → next "scenes"). */
export interface FoundNumber {
  value: number;
  next: string;
}

/**
 * Numbers written in digits (thousands may be separated: "5,000") or as words (one … twenty,
 * dozen), in order of appearance.
 *
 * @example
 * numbersIn("make three scenes of 4 seconds"); // [{ value: 3, next: "scenes" }, { value: 4, next: "seconds" }]
 */
export function numbersIn(text: string): FoundNumber[] {
  const tokens =
    text.toLowerCase().match(/-?\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|-?\d+(?:\.\d+)?|[\p{L}]+/gu) ??
    [];
  const found: FoundNumber[] = [];
  for (const [index, token] of tokens.entries()) {
    const value = /^-?\d/.test(token)
      ? Number(token.replaceAll(",", ""))
      : token.length > 1
        ? numberWords[token]
        : undefined;
    if (value !== undefined && Number.isFinite(value))
      found.push({ value, next: tokens[index + 1] ?? "" });
  }
  return found;
}

/** Singular-ish stem for matching "scenes" with "scene", "stories" with "story". */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith("ies") && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (lower.endsWith("es") && /(?:ch|sh|x|s)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith("s") && !lower.endsWith("ss") && lower.length > 3) return lower.slice(0, -1);
  return lower;
}

/** Words of an identifier: `get_weather`, `getWeather`, `get-weather` → ["get", "weather"]. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Shorten to at most `count` words, adding an ellipsis when cut. */
export function firstWords(text: string, count: number): string {
  const words = text.trim().split(/\s+/);
  return words.length <= count ? text.trim() : `${words.slice(0, count).join(" ")}…`;
}
