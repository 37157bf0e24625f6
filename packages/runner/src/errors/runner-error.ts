const marker = Symbol.for("reelsmith.runner.error");

/**
 * Base class of every error the runner throws itself; each subclass has a stable `code`.
 * @example if (RunnerError.isInstance(error)) console.log(error.code);
 */
export class RunnerError extends Error {
  readonly [marker] = true;
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
  /** True for runner errors, even from another installed copy of the package. */
  static isInstance(value: unknown): value is RunnerError {
    return typeof value === "object" && value !== null && marker in value;
  }
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
    };
    for (const [key, value] of Object.entries(this)) {
      if (key !== "cause" && !(key in json)) json[key] = value;
    }
    return json;
  }
}
