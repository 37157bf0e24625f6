import { RunnerError } from "./runner-error.js";

/**
 * An output path named by the pipeline would leave the run directory
 * (`..`, an absolute path, or a symlink pointing outside).
 * @example throw new OutputPathError("../x.mp4", "it climbs out with ..");
 */
export class OutputPathError extends RunnerError {
  readonly path: string;
  constructor(path: string, reason: string) {
    super("output_path_escapes", `Output path "${path}" is refused: ${reason}.`);
    this.path = path;
  }
}
