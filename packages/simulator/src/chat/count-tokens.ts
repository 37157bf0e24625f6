/** A token: a run of letters/digits or of punctuation, with the whitespace before it. */
const tokenPattern = /\s*(?:[\p{L}\p{N}']+|[^\s\p{L}\p{N}']+)/gu;

/**
 * Split text into the simulator's tokens (about one per word, punctuation runs count as one).
 * Joining the tokens gives the text back without its trailing whitespace.
 *
 * @example
 * tokenize("Hello, world."); // ["Hello", ",", " world", "."]
 */
export function tokenize(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

/** Number of tokens of `text`. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}
