import { ExpressionError } from "./expression-error.js";

/** A piece of a template string: literal text or one `${{ … }}` expression. */
export type TemplateSegment =
  | { type: "text"; text: string }
  | {
      type: "expression";
      expression: string /** offset of `${{` in the template */;
      start: number;
      end: number;
    };

const OPEN = "${{";
const CLOSE = "}}";

/**
 * Split a string into text and `${{ }}` expressions. Single-quoted strings inside an
 * expression may contain `}}` (quotes are escaped by doubling, as in GitHub Actions).
 *
 * @example
 * ```ts
 * splitTemplate("scene-${{ index }}.mp4");
 * // [{type:"text",text:"scene-"},{type:"expression",expression:"index",...},{type:"text",text:".mp4"}]
 * ```
 */
export function splitTemplate(template: string): TemplateSegment[] {
  const segments: TemplateSegment[] = [];
  let cursor = 0;
  while (cursor < template.length) {
    const open = template.indexOf(OPEN, cursor);
    if (open === -1) break;
    if (open > cursor) segments.push({ type: "text", text: template.slice(cursor, open) });
    let position = open + OPEN.length;
    let inString = false;
    let close = -1;
    while (position < template.length) {
      const character = template[position];
      if (inString) {
        if (character === "'") {
          if (template[position + 1] === "'") position += 1;
          else inString = false;
        }
      } else if (character === "'") {
        inString = true;
      } else if (template.startsWith(CLOSE, position)) {
        close = position;
        break;
      }
      position += 1;
    }
    if (close === -1) {
      throw new ExpressionError(
        template.slice(open),
        `unterminated expression: \`\${{\` without a closing \`}}\``,
        {
          offset: open,
        },
      );
    }
    const expression = template.slice(open + OPEN.length, close).trim();
    segments.push({ type: "expression", expression, start: open, end: close + CLOSE.length });
    cursor = close + CLOSE.length;
  }
  if (cursor < template.length) segments.push({ type: "text", text: template.slice(cursor) });
  return segments;
}

/**
 * When a string is exactly one `${{ … }}` (surrounding whitespace allowed), return that
 * expression's text; its value then keeps its type (an array stays an array).
 *
 * @example
 * ```ts
 * wholeExpression("${{ steps.a.outputs.json }}"); // "steps.a.outputs.json"
 * wholeExpression("x-${{ index }}"); // undefined
 * ```
 */
export function wholeExpression(template: string): string | undefined {
  const trimmed = template.trim();
  if (!trimmed.startsWith(OPEN)) return undefined;
  const segments = splitTemplate(trimmed);
  const only = segments[0];
  return segments.length === 1 && only?.type === "expression" ? only.expression : undefined;
}

/**
 * True when every `${{` in the text has its `}}`: the text splits into a template. The syntax
 * check reports a text that does not, at its `${{`; other checks skip it.
 *
 * @example
 * ```ts
 * templateCloses("scene-${{ index }}.mp4"); // true
 * templateCloses("${{ inputs.scenes"); // false
 * ```
 */
export function templateCloses(template: string): boolean {
  try {
    splitTemplate(template);
    return true;
  } catch (error) {
    if (ExpressionError.isInstance(error)) return false;
    throw error;
  }
}

/**
 * True when the string contains `${{`.
 *
 * @example
 * ```ts
 * hasExpressionMarker("hello ${{ inputs.name }}"); // true
 * ```
 */
export function hasExpressionMarker(text: string): boolean {
  return text.includes(OPEN);
}

/**
 * An `if:` condition as a template: GitHub lets conditions omit `${{ }}`, so a bare
 * condition is wrapped (for reference collection and syntax checks).
 *
 * @example
 * ```ts
 * conditionAsTemplate("inputs.n > 2"); // "${{ inputs.n > 2 }}"
 * conditionAsTemplate("${{ always() }}"); // unchanged
 * ```
 */
export function conditionAsTemplate(condition: string): string {
  return hasExpressionMarker(condition) ? condition : `\${{ ${condition} }}`;
}
