import { materialOf, splitSentences, stopWords } from "./text-analysis.js";

/** Verbs an instruction starts with ("Split the story…", "Give it a title…"). */
const imperatives = new Set(
  (
    "split divide break give write make create describe summarize summarise turn list generate " +
    "answer return respond reply use keep tell name suggest plan draft compose produce convert " +
    "translate rewrite explain provide output format please add pick choose"
  ).split(" "),
);

/**
 * The first quoted passage of a text ("…", “…” or '…'), if any.
 *
 * @example
 * quoted('A film called "The Long Night".'); // "The Long Night"
 */
export function quoted(text: string): string | undefined {
  return /"([^"]+)"|“([^”]+)”|'([^']{2,})'/.exec(text)?.slice(1).find(Boolean);
}

const determiners = new Set(
  "a an the his her its their my our your this that these those".split(" "),
);

/**
 * True for a sentence that opens with a determiner ("A fox…", "The keeper…"): its first noun
 * phrase is its subject.
 *
 * @example
 * determinerOpens("A lighthouse keeper finds a fox."); // true
 */
export function determinerOpens(sentence: string): boolean {
  return determiners.has(sentence.trim().split(/\s+/)[0]?.toLowerCase() ?? "");
}

/**
 * True for a sentence that asks for work rather than telling the story: it starts with an
 * imperative ("Split the story above into 4 scenes…") or points at the text ("the story above").
 *
 * @example
 * isInstruction("Split the story above into 4 scenes."); // true
 */
export function isInstruction(sentence: string): boolean {
  const first =
    sentence
      .trim()
      .split(/\s+/)[0]
      ?.toLowerCase()
      .replace(/[^a-z]/g, "") ?? "";
  return (
    imperatives.has(first) || /\b(?:story|text|scenes?|passage)\s+(?:above|below)\b/i.test(sentence)
  );
}

/**
 * The sentences of `text` that tell something, without the instructions around them (all of
 * them when every sentence is an instruction).
 *
 * @example
 * storySentences("A fox runs. It jumps. Split the story above into 2 scenes.");
 * // ["A fox runs.", "It jumps."]
 */
export function storySentences(text: string): string[] {
  const sentences = splitSentences(text);
  const told = sentences.filter((sentence) => !isInstruction(sentence));
  return told.length > 0 ? told : sentences;
}

/**
 * Noun phrases that follow a determiner ("a paper boat", "the sleeping cat"): up to three
 * words, stopping at a common word, and without a last word that is followed by another
 * determiner (it is then a verb: "a paper boat leaves a child's hands" → "paper boat").
 *
 * @example
 * nounPhrases("A paper boat leaves a child's hands on a rainy street.");
 * // ["paper boat", "child's hands", "rainy street"]
 */
export function nounPhrases(sentence: string): string[] {
  const tokens = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  const phrases: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    if (!determiners.has((tokens[index] ?? "").toLowerCase())) continue;
    const words: string[] = [];
    let next = index + 1;
    while (next < tokens.length && words.length < 3) {
      const word = tokens[next] ?? "";
      const lower = word.toLowerCase();
      if (stopWords.has(lower) || determiners.has(lower)) break;
      words.push(word);
      next++;
    }
    if (words.length > 1 && determiners.has((tokens[next] ?? "").toLowerCase())) words.pop();
    if (words.length > 0) phrases.push(words.join(" "));
  }
  return phrases;
}

const small = new Set("a an the and or of in on at to for by with from".split(" "));

/**
 * Title case: every word capitalised except short joining words inside the title.
 *
 * @example
 * titleCase("the sunlit lake at dawn"); // "The Sunlit Lake at Dawn"
 */
export function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, index) =>
      index > 0 && small.has(word.toLowerCase())
        ? word.toLowerCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(" ");
}

function fallbackWords(sentence: string): string {
  const words = (sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter(
    (word) =>
      word.length > 2 && !stopWords.has(word.toLowerCase()) && !imperatives.has(word.toLowerCase()),
  );
  return words.slice(0, 3).join(" ");
}

/**
 * A short title for one scene: its subject when the sentence opens with one ("A paper boat
 * leaves…" → "The Paper Boat"), else its most specific later noun phrase ("It rides the
 * gutter past a sleeping cat." → "The Sleeping Cat").
 *
 * @example
 * sceneTitle("It tumbles down a drain into a glowing cave."); // "The Glowing Cave"
 */
export function sceneTitle(sentence: string): string {
  const phrases = nounPhrases(sentence);
  const opensWithSubject = determiners.has(sentence.trim().split(/\s+/)[0]?.toLowerCase() ?? "");
  const longer = [...phrases].reverse().find((phrase) => phrase.includes(" "));
  const chosen = (opensWithSubject ? phrases[0] : undefined) ?? longer ?? phrases.at(-1);
  if (chosen) return titleCase(`the ${chosen}`);
  return titleCase(fallbackWords(sentence) || sentence.replace(/[.!?…]+$/, ""));
}

/**
 * A title for a whole story: its first subject, and where the story ends when that differs
 * ("The Paper Boat and the Sunlit Lake").
 *
 * @example
 * storyTitle("A paper boat leaves a child's hands. It comes out on a sunlit lake at dawn.");
 * // "The Paper Boat and the Sunlit Lake"
 */
export function storyTitle(text: string): string {
  const sentences = storySentences(text);
  const first = sceneTitle(sentences[0] ?? text);
  if (sentences.length < 2) return first;
  const last = sceneTitle(sentences[sentences.length - 1] ?? "");
  if (!last || last === first || !last.startsWith("The ")) return first;
  return `${first} and ${last.replace(/^The /, "the ")}`;
}

/**
 * What a request is about: the text after the instruction's colon ("Split into 3 scenes: …")
 * or the whole text, without its instruction sentences.
 *
 * @example
 * storyOf("A fox runs. It jumps.\n\nSplit the story above into 2 scenes."); // "A fox runs. It jumps."
 */
export function storyOf(text: string): string {
  return storySentences(materialOf(text)).join(" ");
}
