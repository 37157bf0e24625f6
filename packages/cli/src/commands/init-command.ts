import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { pipelineTemplate } from "../templates/pipeline-template.js";

/** Flags of `reelsmith init`. */
export interface InitFlags {
  name?: string;
  force?: boolean;
}

/**
 * Where the pipeline JSON schema is installed (inside @reelsmith/runner), or undefined.
 *
 * @example
 * locatePipelineSchema(); // "/…/node_modules/@reelsmith/runner/schema/pipeline.schema.json"
 */
export function locatePipelineSchema(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve("@reelsmith/runner/package.json");
    return path.join(path.dirname(manifest), "schema", "pipeline.schema.json");
  } catch {
    return undefined;
  }
}

/**
 * The value of the `$schema=` line for a pipeline written in `dir`: a relative path to the
 * installed schema (so editors work offline), falling back to the schema's name.
 *
 * @example
 * schemaReference("/work/films", "/work/node_modules/@reelsmith/runner/schema/pipeline.schema.json");
 * // "../node_modules/@reelsmith/runner/schema/pipeline.schema.json"
 */
export function schemaReference(dir: string, schemaFile: string | undefined): string {
  if (!schemaFile) return "pipeline.schema.json";
  const relative = path.relative(dir, schemaFile).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

/**
 * `reelsmith init [DIR]`: write DIR/pipeline.yaml from the template (refusing to overwrite
 * unless --force) and say how to validate and run it.
 *
 * @example
 * const code = await initCommand("my-film", {}, context);
 */
export async function initCommand(
  dir: string | undefined,
  flags: InitFlags,
  context: CliContext,
): Promise<number> {
  const target = path.resolve(context.cwd, dir ?? ".");
  const file = path.join(target, "pipeline.yaml");
  const name =
    flags.name ?? (path.basename(target).replace(/[^A-Za-z0-9_-]+/g, "-") || "my-pipeline");
  await mkdir(target, { recursive: true });
  const text = pipelineTemplate({
    name,
    schemaPath: schemaReference(target, locatePipelineSchema()),
  });
  try {
    await writeFile(file, text, { flag: flags.force ? "w" : "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new UsageError(`${displayPath(file, context.cwd)} already exists`, {
        code: "file_exists",
        hint: "pick another directory, or pass --force to overwrite it",
      });
    }
    throw error;
  }
  const shown = displayPath(file, context.cwd);
  context.stdout.write(
    `created ${shown}\n\nNext:\n  reelsmith validate ${shown}\n  reelsmith plan ${shown}\n  reelsmith run ${shown}\n`,
  );
  return ExitCode.ok;
}

/**
 * Declare `init` on the program.
 *
 * @example
 * registerInitCommand(program, context, (code) => (exitCode = code));
 */
export function registerInitCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("init")
    .summary("create a pipeline from a template")
    .description(
      "Write DIR/pipeline.yaml (default: the current directory) from the storyboard template, with the schema line for editors.",
    )
    .argument("[dir]", "directory to create the pipeline in", ".")
    .option("--name <name>", "pipeline name (default: the directory's name)")
    .option("--force", "overwrite an existing pipeline.yaml")
    .action(async (dir: string, flags: InitFlags) => done(await initCommand(dir, flags, context)));
}
