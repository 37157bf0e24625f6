import { type Expr, Lexer, Parser } from "@actions/expressions";
import { ExpressionError } from "./expression-error.js";

/**
 * The contexts an expression may read. `previous` is the item before this one in a
 * `sequential` fan-out (null in the first).
 */
export const CONTEXT_NAMES = [
  "inputs",
  "env",
  "steps",
  "item",
  "index",
  "previous",
  "run",
] as const;

/** Status functions usable in `if:` (GitHub Actions semantics). */
export const STATUS_FUNCTIONS = ["success", "failure", "always", "cancelled"] as const;

const statusFunctionInfo = STATUS_FUNCTIONS.map((name) => ({ name, minArgs: 0, maxArgs: 0 }));
const cache = new Map<string, Expr | undefined>();
const CACHE_LIMIT = 5_000;

/**
 * Parse one expression (the text inside `${{ }}`) with GitHub's parser. Results are cached.
 * Throws ExpressionError for unknown syntax, contexts or functions.
 *
 * @example
 * ```ts
 * const tree = parseExpression("steps.storyboard.outputs.json.scenes");
 * ```
 */
export function parseExpression(expression: string): Expr {
  if (cache.has(expression)) {
    const cached = cache.get(expression);
    if (cached) return cached;
  }
  let tree: Expr | undefined;
  try {
    const { tokens } = new Lexer(expression).lex();
    tree = new Parser(tokens, [...CONTEXT_NAMES], statusFunctionInfo).parse();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ExpressionError(expression, `invalid expression \`${expression}\`: ${message}`, {
      cause: error,
    });
  }
  if (!tree) throw new ExpressionError(expression, `empty expression \`\${{ }}\``);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(expression, tree);
  return tree;
}
