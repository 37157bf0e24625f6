/**
 * Base class of every error the simulator throws, with a stable `code`. Checked across two
 * installed copies of the package with {@link SimulatorError.isInstance}.
 *
 * @example
 * try { parseFaultSpec("nonsense"); } catch (error) { if (SimulatorError.isInstance(error)) console.error(error.code); }
 */
export class SimulatorError extends Error {
  static readonly marker: symbol = Symbol.for("reelsmith.simulator.error");
  readonly code: string;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    Object.defineProperty(this, SimulatorError.marker, { value: true });
  }

  /** True for any SimulatorError, even one made by another copy of this package. */
  static isInstance(value: unknown): value is SimulatorError {
    return typeof value === "object" && value !== null && SimulatorError.marker in value;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}
