import { SimulatorError } from "./simulator-error.js";

/**
 * A fault specification (option or CLI string) that cannot be understood.
 *
 * @example
 * try { parseFaultSpec("429@chat:2"); } catch (error) { if (FaultSpecError.isInstance(error)) console.error(error.entry); }
 */
export class FaultSpecError extends SimulatorError {
  /** The entry of the spec at fault. */
  readonly entry: string;

  constructor(message: string, entry: string) {
    // Bad input, not a failure: a command given it exits 2 (usage), as for any bad flag.
    super(message, "fault_spec_invalid", { category: "invalid" });
    this.entry = entry;
  }
}
