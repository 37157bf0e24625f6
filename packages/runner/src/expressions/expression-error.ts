import { RunnerError } from "../errors/runner-error.js";

/**
 * An expression (`${{ … }}`) that cannot be parsed or evaluated. Code "expression_error".
 *
 * @example
 * ```ts
 * try { evaluateValue("${{ inputs. }}", context); }
 * catch (error) { if (ExpressionError.isInstance(error)) console.error(error.expression, error.message); }
 * ```
 */
export class ExpressionError extends RunnerError {
  /** The expression text (without `${{ }}`), or the rest of the template when it is unterminated. */
  readonly expression: string;
  /** 0-based offset of the problem inside the template string, when known. */
  readonly offset: number | undefined;

  constructor(expression: string, message: string, options?: { cause?: unknown; offset?: number }) {
    super("expression_error", message, { category: "invalid", cause: options?.cause });
    this.expression = expression;
    this.offset = options?.offset;
  }
}
