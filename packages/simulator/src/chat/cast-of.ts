import { determinerOpens, nounPhrases, storySentences } from "./story-text.js";

/** One character of a story as a writer names it: "the fox", with a short look. */
export interface CastMember {
  /** "the keeper": the head noun of how the story first calls it. */
  name: string;
  /** "a lighthouse keeper": the fullest way the story calls it, a few words. */
  look: string;
}

/** Without a trailing participle: "red fox sheltering" → "red fox". */
function trimmed(phrase: string): string {
  const words = phrase.split(/\s+/);
  while (words.length > 1 && /(?:ing|ed)$/i.test(words.at(-1) ?? "")) words.pop();
  return words.join(" ");
}

function headOf(phrase: string): string {
  return (phrase.split(/\s+/).at(-1) ?? phrase).toLowerCase().replace(/['’]s$/, "");
}

function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? "an" : "a"} ${phrase.toLowerCase()}`;
}

/**
 * The characters of a story, in the order they appear: what a sentence opens with ("A
 * lighthouse keeper finds…") and what several sentences speak of ("a red fox" … "the fox"),
 * named by their head noun with the fullest phrase as their look. Deterministic; when the
 * story names nothing, its first noun phrase, else "the traveller".
 *
 * @example
 * castOf("A lighthouse keeper finds a red fox. At dawn the fox follows her.");
 * // [{ name: "the keeper", look: "a lighthouse keeper" }, { name: "the fox", look: "a red fox" }]
 */
export function castOf(story: string): CastMember[] {
  const sentences = storySentences(story);
  const found = new Map<string, { phrase: string; sentences: Set<number>; opens: boolean }>();
  for (const [index, sentence] of sentences.entries()) {
    const phrases = nounPhrases(sentence);
    for (const [at, said] of phrases.entries()) {
      const phrase = trimmed(said);
      const head = headOf(phrase);
      if (head.length < 3) continue;
      const entry = found.get(head) ?? { phrase, sentences: new Set<number>(), opens: false };
      if (phrase.split(/\s+/).length > entry.phrase.split(/\s+/).length) entry.phrase = phrase;
      entry.sentences.add(index);
      if (at === 0 && determinerOpens(sentence)) entry.opens = true;
      found.set(head, entry);
    }
  }
  const cast = [...found.entries()]
    .filter(([, entry]) => entry.opens || entry.sentences.size > 1)
    .map(([head, entry]) => ({ name: `the ${head}`, look: withArticle(entry.phrase) }));
  if (cast.length > 0) return cast;
  const [head, first] = [...found.entries()][0] ?? [];
  if (head && first) return [{ name: `the ${head}`, look: withArticle(first.phrase) }];
  return [{ name: "the traveller", look: "a traveller in a long coat" }];
}
