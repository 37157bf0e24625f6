import { type ErrorCategory, ReelsmithError } from "@reelsmith/core/errors";

/**
 * Base class of every error the simulator throws, a `ReelsmithError` like every reelsmith
 * error: a stable `code`, a category, and a `Symbol.for("reelsmith.error.<Name>")` marker per
 * class, checked across two installed copies of the package with the static `isInstance`.
 *
 * @example
 * try { parseFaultSpec("nonsense"); } catch (error) { if (SimulatorError.isInstance(error)) console.error(error.code); }
 */
export class SimulatorError extends ReelsmithError {
  constructor(
    message: string,
    code: string,
    options?: { cause?: unknown; category?: ErrorCategory },
  ) {
    super(message, {
      code,
      cause: options?.cause,
      ...(options?.category ? { category: options.category } : {}),
    });
  }

  override toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, category: this.category };
  }
}
