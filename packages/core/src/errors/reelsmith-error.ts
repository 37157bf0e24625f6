/** Options shared by every reelsmith error. */
export interface ReelsmithErrorOptions {
  cause?: unknown;
}

type ErrorClass = abstract new (...args: never[]) => ReelsmithError;

/**
 * Base class of every error thrown by `@reelsmith/core`.
 *
 * Each error has a stable `code`, an `isRetryable` flag, an optional `cause`, and
 * serialises to plain JSON with `toJSON()` (so it can be written to a journal). Use the
 * static `isInstance()` rather than `instanceof`: it also works when two copies of the
 * package are installed.
 *
 * @example
 * ```ts
 * try { await client.models.list(); }
 * catch (error) { if (ReelsmithError.isInstance(error)) console.error(error.code, error.toJSON()); }
 * ```
 */
export class ReelsmithError extends Error {
  static readonly marker: symbol = Symbol.for("reelsmith.error.ReelsmithError");
  /** Stable, machine-readable identifier of the error kind. */
  readonly code: string;
  /** Whether repeating the same operation may succeed. */
  readonly isRetryable: boolean;

  constructor(
    message: string,
    options: ReelsmithErrorOptions & { code?: string; isRetryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "reelsmith_error";
    this.isRetryable = options.isRetryable ?? false;
    // Mark the instance with the Symbol.for marker of every class in its chain.
    let ctor: unknown = new.target;
    while (typeof ctor === "function" && ctor !== Error) {
      if (Object.hasOwn(ctor, "marker")) {
        const marker = (ctor as unknown as { marker: symbol }).marker;
        Object.defineProperty(this, marker, { value: true, enumerable: false });
      }
      ctor = Object.getPrototypeOf(ctor);
    }
  }

  /** True when `value` is an instance of this class (checked by a `Symbol.for` marker). */
  static isInstance<T extends ErrorClass>(this: T, value: unknown): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance is called on.
    const marker = (this as unknown as { marker: symbol }).marker;
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  /** A plain JSON object: name, code, message, isRetryable, the structured fields, and the cause. */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
    };
    for (const [key, value] of Object.entries(this)) {
      if (!(key in json)) json[key] = value;
    }
    if (this.cause !== undefined) json.cause = serializeCause(this.cause);
    return json;
  }
}

function serializeCause(cause: unknown): unknown {
  if (cause instanceof ReelsmithError) return cause.toJSON();
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, message: cause.message, ...(code === undefined ? {} : { code }) };
  }
  return typeof cause === "string" ? cause : undefined;
}
