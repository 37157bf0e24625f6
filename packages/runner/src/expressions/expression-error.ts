import { RunnerError } from "../errors/runner-error.js";

/**
 * An expression (`${{ … }}`) that cannot be parsed or evaluated. Code "EXPRESSION_ERROR".
 *
 * @example
 * ```ts
 * try { evaluateValue("${{ inputs. }}", context); }
 * catch (error) { if (ExpressionError.isInstance(error)) console.error(error.expression, error.message); }
 * ```
 */
export class ExpressionError extends RunnerError {
  static readonly marker = Symbol.for("reelsmith.runner.ExpressionError");
  /** The expression text (without `${{ }}`), or the rest of the template when it is unterminated. */
  readonly expression: string;
  /** 0-based offset of the problem inside the template string, when known. */
  readonly offset: number | undefined;

  constructor(expression: string, message: string, options?: { cause?: unknown; offset?: number }) {
    super(
      "EXPRESSION_ERROR",
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.expression = expression;
    this.offset = options?.offset;
    Object.defineProperty(this, ExpressionError.marker, { value: true });
  }

  /** True for an ExpressionError, even one from another copy of the package. */
  static override isInstance(value: unknown): value is ExpressionError {
    return typeof value === "object" && value !== null && ExpressionError.marker in value;
  }
}
