/** Words that can open an independent clause: a pronoun, a determiner, a joining adverb. */
const subjects = new Set(
  (
    "it he she they we i you the a an his her its their this that these those there " +
    "then suddenly soon later meanwhile finally"
  ).split(" "),
);

/** Joining words dropped at the start of a clause cut from a sentence ("…, and it leaps"). */
const joiners = new Set(["and", "but", "so", "yet"]);

const letters = (text: string) => text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function closed(text: string, ending: string): string {
  const bare = text.replace(/[\s,;:—–-]+$/u, "");
  return /[.!?…]$/.test(bare) ? bare : `${bare}${ending}`;
}

/**
 * Cut a long sentence into its independent clauses: at a comma, semicolon, dash or a joining
 * "and"/"but"/"then" when what follows opens a clause of its own (a pronoun or a determiner:
 * "…, and it leaps onto the bank") and both parts have at least three words. Each clause is
 * a sentence of its own (capitalised, closed with the sentence's own punctuation); a
 * sentence without such a cut comes back whole.
 *
 * @example
 * splitClauses("A fox crosses a frozen river, and it leaps onto the far bank.");
 * // ["A fox crosses a frozen river.", "It leaps onto the far bank."]
 */
export function splitClauses(sentence: string): string[] {
  const ending = /[.!?…]$/.test(sentence.trim()) ? (sentence.trim().slice(-1) ?? ".") : ".";
  const cut = /\s*(?:[,;]|\s[—–-])\s+|\s+(?=(?:and|but|then)\s)/giu;
  const clauses: string[] = [];
  let start = 0;
  for (const match of sentence.matchAll(cut)) {
    const at = match.index ?? 0;
    const before = sentence.slice(start, at);
    let rest = sentence.slice(at + match[0].length);
    const first = rest.split(/\s+/)[0]?.toLowerCase() ?? "";
    const skipped = joiners.has(first) ? rest.slice(first.length).trimStart() : rest;
    const opener =
      skipped
        .split(/\s+/)[0]
        ?.toLowerCase()
        .replace(/[^\p{L}]/gu, "") ?? "";
    if (!subjects.has(opener) || letters(before) < 3 || letters(skipped) < 3) continue;
    rest = skipped;
    clauses.push(closed(before.trim(), ending));
    start = sentence.length - rest.length;
  }
  const last = sentence.slice(start).trim();
  if (clauses.length === 0) return [sentence.trim()];
  clauses.push(closed(last, ending));
  return clauses.map(capitalise);
}
