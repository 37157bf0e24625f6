/** Files that import each other in a loop: all of them, sorted, and one loop through them. */
export interface ImportCircle {
  files: string[];
  loop: string[];
}
export declare function sourceFiles(): string[];
export declare function importCircles(
  files?: string[],
  read?: (file: string) => string,
): ImportCircle[];
