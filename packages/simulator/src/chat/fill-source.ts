import type { Beat } from "./compose-beats.js";

/**
 * What a schema is filled from: the part of the user's text a value is about, and the
 * property being filled. The fillers of each JSON type (numbers, strings, counts) read it.
 *
 * @example
 * const source: FillSource = { focus: "Two foxes meet.", whole: story, key: "title", description: "" };
 */
export interface FillSource {
  /** The text this part of the instance is about (a group of sentences inside an array item). */
  focus: string;
  /** The whole user text (numbers for counts are searched here too). */
  whole: string;
  /** Name of the property being filled. */
  key: string;
  /** Description of the property being filled. */
  description: string;
  /** Inside one item of an array: what the item says and its title, unlike its neighbours'. */
  beat?: Beat;
}
