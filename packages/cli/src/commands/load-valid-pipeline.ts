import path from "node:path";
import type { LoadedPipeline, ValidateOptions } from "@reelsmith/runner/validate";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";

/**
 * Validate a pipeline file before anything is spent (its models by the one model check when
 * `catalogs` or `models` are given): warnings are printed and the pipeline is
 * returned; errors are printed as `file:line:column` with the line and a caret, then a
 * UsageError (exit 2) says how many and what to do.
 *
 * @example
 * const pipeline = await loadValidPipeline("examples/storyboard/pipeline.yaml", context);
 */
export async function loadValidPipeline(
  file: string,
  context: CliContext,
  options: {
    catalogs?: Readonly<Record<string, readonly { id: string }[]>> | undefined;
    /** The one model check's options (`modelCheckSetup`): given inputs, the service's list. */
    models?: ValidateOptions["models"];
  } = {},
): Promise<LoadedPipeline> {
  const absolute = path.resolve(context.cwd, file);
  const { formatDiagnostic, validatePipeline } = await import("@reelsmith/runner/validate");
  const { pipeline, diagnostics } = await validatePipeline(absolute, {
    ...(options.catalogs ? { catalogs: options.catalogs } : {}),
    ...(options.models !== undefined ? { models: options.models } : {}),
  });
  for (const diagnostic of diagnostics) {
    const shown = { ...diagnostic, file: displayPath(diagnostic.file || absolute, context.cwd) };
    context.stderr.write(`${formatDiagnostic(shown)}\n`);
  }
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (!pipeline || errors.length > 0) {
    // A file that cannot be read has nothing to fix inside it: its own hint says what to do.
    const unreadable =
      errors.length > 0 && errors.every((error) => error.code === "pipeline_unreadable");
    throw new UsageError(
      `${displayPath(absolute, context.cwd)} has ${errors.length || 1} error${errors.length === 1 ? "" : "s"}; nothing was run`,
      {
        code: "invalid_pipeline",
        ...(unreadable
          ? {}
          : { hint: "fix the problems above (reelsmith validate checks without running)" }),
      },
    );
  }
  return pipeline;
}

/**
 * The pipeline's inputs from the given values: defaults, types coerced from command-line
 * strings, `file` inputs checked. Every problem at once, as a UsageError (exit 2).
 *
 * @example
 * const inputs = await checkInputs(pipeline, { scenes: "3" }); // { story: "…", scenes: 3, … }
 */
export async function checkInputs(
  pipeline: LoadedPipeline,
  given: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { InputError, resolveInputs } = await import("@reelsmith/runner/validate");
  try {
    return resolveInputs(pipeline, given);
  } catch (error) {
    if (InputError.isInstance(error)) {
      throw new UsageError(error.message, {
        code: "invalid_inputs",
        hint: "set inputs with --input name=value or --inputs file.yaml",
        cause: error,
      });
    }
    throw error;
  }
}
