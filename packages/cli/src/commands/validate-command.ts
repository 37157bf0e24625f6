import path from "node:path";
import type { Diagnostic } from "@reelsmith/runner/validate";
import type { Command } from "commander";
import { takeProfileWarnings } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { modelCheckSetup } from "../services/model-check-setup.js";

/** What {@link validateFiles} found: the provider profile's warnings and each file's diagnostics. */
export interface ValidationResult {
  profileWarnings: string[];
  files: { file: string; diagnostics: Diagnostic[] }[];
}

/**
 * Validate pipeline files without printing: every problem of every file (an unreadable file
 * is one `unreadable` error at 1:1), with every model the steps name (input defaults included)
 * checked by the one model check against what is known offline: the provider profile's
 * sections, the built-in simulator's catalogs when it is the service; a model nobody knows
 * offline is a warning saying why (a bad profile throws, as the commands report it).
 *
 * @example
 * const { files } = await validateFiles(["pipeline.yaml"], context);
 */
export async function validateFiles(
  files: string[],
  context: CliContext,
): Promise<ValidationResult> {
  // Loaded on use, and only the runner's pipeline side (no service client, no ffmpeg).
  const { validatePipeline } = await import("@reelsmith/runner/validate");
  const { catalogs, models } = await modelCheckSetup({}, context, {
    readService: false,
    where: "validate",
  });
  const profileWarnings = await takeProfileWarnings(context);
  const results: ValidationResult["files"] = [];
  for (const file of files) {
    const absolute = path.resolve(context.cwd, file);
    let diagnostics: Diagnostic[];
    try {
      ({ diagnostics } = await validatePipeline(absolute, {
        ...(catalogs ? { catalogs } : {}),
        models,
      }));
    } catch (error) {
      diagnostics = [
        {
          severity: "error",
          code: "unreadable",
          message: `cannot validate: ${(error as Error).message}`,
          file: absolute,
          line: 1,
          column: 1,
        },
      ];
    }
    results.push({
      file: absolute,
      diagnostics: diagnostics.map((d) => ({ ...d, file: d.file || absolute })),
    });
  }
  return { profileWarnings, files: results };
}

/**
 * Validate pipeline files: every problem of every file, as `file:line:column` with the line
 * and a caret (the runner's formatDiagnostic), then a count. Returns 2 when any error. Video
 * models are checked against the provider profile's limits when there is one (offline), with
 * one warning per model whose limits or price it leaves unknown; a bad profile is exit 2.
 *
 * @example
 * const code = await validateCommand(["a.yaml", "b.yaml"], context);
 */
export async function validateCommand(files: string[], context: CliContext): Promise<number> {
  const { formatDiagnostic } = await import("@reelsmith/runner/validate");
  const result = await validateFiles(files, context);
  let errors = 0;
  let warnings = 0;
  for (const line of result.profileWarnings) {
    context.stdout.write(`${line}\n`);
    warnings += 1;
  }
  for (const { file: absolute, diagnostics } of result.files) {
    const fileErrors = diagnostics.filter((d) => d.severity === "error").length;
    errors += fileErrors;
    warnings += diagnostics.length - fileErrors;
    for (const diagnostic of diagnostics) {
      const shown = { ...diagnostic, file: displayPath(diagnostic.file || absolute, context.cwd) };
      context.stdout.write(`${formatDiagnostic(shown)}\n`);
    }
    if (fileErrors === 0) context.stdout.write(`${displayPath(absolute, context.cwd)}: ok\n`);
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const summary = `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(files.length, "file")}`;
  (errors > 0 ? context.stderr : context.stdout).write(`${summary}\n`);
  return errors > 0 ? ExitCode.usage : ExitCode.ok;
}

/**
 * Declare `validate` on the program.
 *
 * @example
 * registerValidateCommand(program, context, (code) => (exitCode = code));
 */
export function registerValidateCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("validate")
    .summary("check pipeline files without running them")
    .description(
      "Check pipeline files (schema, references, models and their limits) and print every problem as file:line:column. Every model a step names (input defaults included) is checked, without calling the service, against the provider profile (--config, REELSMITH_CONFIG or reelsmith.config.yaml), or the built-in simulator's models when it is the service; an unknown one is an error with the closest known one, a model that cannot be known offline a warning. Exits 2 when any file, or the profile, has an error.",
    )
    .argument("<files...>", "pipeline YAML files")
    .action(async (files: string[]) => done(await validateCommand(files, context)));
}
