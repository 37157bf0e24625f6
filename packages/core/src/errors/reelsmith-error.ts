import type { ErrorCategory } from "./error-category.js";

/** Options shared by every reelsmith error. */
export interface ReelsmithErrorOptions {
  cause?: unknown;
}

/** What a subclass passes to the base: its code, whether a retry may help, its category and hint. */
export interface ReelsmithErrorInit extends ReelsmithErrorOptions {
  code?: string;
  isRetryable?: boolean;
  /** What the error means for the caller (an exit code, a run status); `failed` unless given. */
  category?: ErrorCategory;
  /** What to do about it, in one sentence for people. */
  hint?: string | undefined;
}

type ErrorClass = abstract new (...args: never[]) => ReelsmithError;

/**
 * The marker of one error class: its own static `marker` when it declares one, else
 * `Symbol.for("reelsmith.error.<Name>")`. Both are global symbols, shared by every copy.
 */
function markerOf(ctor: { name: string }): symbol {
  return Object.hasOwn(ctor, "marker")
    ? (ctor as unknown as { marker: symbol }).marker
    : Symbol.for(`reelsmith.error.${ctor.name}`);
}

/**
 * Base class of every reelsmith error, in every package (the runner's `RunnerError`, media's
 * `MediaError`, the CLI's `CliError`, the simulator's `SimulatorError` extend it).
 *
 * Each error has a stable `code`, an `isRetryable` flag, a {@link ErrorCategory} (what it
 * means for the caller: the CLI's exit code, a run's status), an optional `hint` (what to do)
 * and `cause`, and serialises to plain JSON with `toJSON()` (so it can be written to a
 * journal, category included). Each class marks its instances with
 * `Symbol.for("reelsmith.error.<Name>")`: use the static `isInstance()` rather than
 * `instanceof`, it also works when two copies of a package are installed.
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
  /** What the error means for the caller: see {@link ErrorCategory}. */
  readonly category: ErrorCategory;
  /** What to do about it, when the class (or the thrower) knows. */
  declare readonly hint?: string;

  constructor(message: string, options: ReelsmithErrorInit = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "reelsmith_error";
    this.isRetryable = options.isRetryable ?? false;
    this.category = options.category ?? "failed";
    if (options.hint) (this as { hint?: string }).hint = options.hint;
    // Mark the instance with the Symbol.for marker of every class in its chain.
    let ctor: unknown = new.target;
    while (typeof ctor === "function" && ctor !== Error) {
      Object.defineProperty(this, markerOf(ctor), { value: true, enumerable: false });
      ctor = Object.getPrototypeOf(ctor);
    }
  }

  /** True when `value` is an instance of this class (checked by a `Symbol.for` marker). */
  static isInstance<T extends ErrorClass>(this: T, value: unknown): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance is called on.
    const marker = markerOf(this);
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  /**
   * A plain JSON object: name, code, message, isRetryable, category, the structured fields
   * (the hint among them), and the cause.
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
      category: this.category,
    };
    for (const [key, value] of Object.entries(this)) {
      if (!(key in json)) json[key] = value;
    }
    if (this.cause !== undefined) json.cause = serializeCause(this.cause);
    return json;
  }
}

function serializeCause(cause: unknown): unknown {
  if (ReelsmithError.isInstance(cause)) return cause.toJSON();
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, message: cause.message, ...(code === undefined ? {} : { code }) };
  }
  return typeof cause === "string" ? cause : undefined;
}
