/** A function longer than the limit: where it starts, its name and its length in lines. */
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}
export declare const workspaceRoot: string;
export declare function longFunctions(limit?: number): LongFunction[];
