// Types of the `linebreak` package (UAX #14), which ships none.
declare module "linebreak" {
  /** A place where a line may (or, when `required`, must) break: before `position`. */
  interface Break {
    position: number;
    required: boolean;
  }
  /** Iterates over the break opportunities of a string. */
  export default class LineBreaker {
    constructor(text: string);
    /** The next break opportunity, or `null` after the last (the end of the text). */
    nextBreak(): Break | null;
  }
}
