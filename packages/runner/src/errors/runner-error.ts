/** The marker a runner error class leaves on its instances (one per class, shared by copies). */
function markerOf(name: string): symbol {
  return Symbol.for(`reelsmith.runner.${name}`);
}

/**
 * Base class of every error the runner throws itself. Each class has a stable snake_case
 * `code`, says whether repeating the work may succeed (`isRetryable`, false unless the class
 * says otherwise), and is recognised with its static `isInstance` (a `Symbol.for` marker per
 * class, so the check also holds across two installed copies of the package). Serialises to
 * plain JSON for the journal and events.
 * @example if (BudgetExceededError.isInstance(error)) console.log(error.code, error.isRetryable);
 */
export class RunnerError extends Error {
  readonly code: string;
  /** True when running the same work again may succeed. */
  readonly isRetryable: boolean;
  constructor(code: string, message: string, options?: { cause?: unknown; isRetryable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.isRetryable = options?.isRetryable ?? false;
    // Mark the instance for its class and every runner error class above it.
    let ctor: unknown = new.target;
    while (typeof ctor === "function" && ctor !== Error) {
      Object.defineProperty(this, markerOf((ctor as { name: string }).name), { value: true });
      ctor = Object.getPrototypeOf(ctor);
    }
  }

  /** True when `value` is an instance of the class this is called on (by its marker). */
  static isInstance<T extends abstract new (...args: never[]) => RunnerError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance is called on.
    const marker = markerOf(this.name);
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
    };
    for (const [key, value] of Object.entries(this)) {
      if (key !== "cause" && !(key in json)) json[key] = value;
    }
    return json;
  }
}
