import { describeSeconds, describeSizes, type VideoModelSpec } from "@reelsmith/core/catalog";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { formatTable } from "../render/format.js";
import { openService } from "../services/open-service.js";
import { connectionOption } from "./run-command.js";

/** Flags of `reelsmith models`. */
export interface ModelsFlags {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
}

/**
 * `reelsmith models`: the service's chat models (from /v1/models) and the video models with
 * their limits (length, sizes).
 *
 * @example
 * const code = await modelsCommand({}, context);
 */
export async function modelsCommand(flags: ModelsFlags, context: CliContext): Promise<number> {
  const service = await openService(flags, context, (line) => context.stderr.write(`${line}\n`));
  try {
    const models = await service.client.models.list({ signal: context.signal });
    // Video models the service lists with their limits; the built-in simulator's own.
    const listed = models.filter((model) => model.type === "video");
    const videoModels: readonly VideoModelSpec[] =
      listed.length > 0
        ? listed.map((model) => videoSpecOf(model))
        : service.builtIn
          ? (await import("@reelsmith/simulator/catalog")).videoModels
          : [];
    if (flags.json) {
      context.stdout.write(`${JSON.stringify({ models, videoModels }, null, 2)}\n`);
      return ExitCode.ok;
    }
    const videoIds = new Set(videoModels.map((model) => model.id));
    const rows = [["model", "owned by"]];
    for (const model of models) {
      if (!videoIds.has(model.id)) rows.push([model.id, String(model.owned_by ?? "-")]);
    }
    context.stdout.write(`chat models at ${service.baseURL}\n${formatTable(rows)}\n\n`);
    const videoRows = [["video model", "seconds", "sizes"]];
    for (const model of videoModels) {
      videoRows.push([
        model.id,
        model.seconds ? describeSeconds(model.seconds) : "unknown",
        model.sizes ? describeSizes(model.sizes) : "unknown",
      ]);
    }
    context.stdout.write(`${formatTable(videoRows)}\n`);
    return ExitCode.ok;
  } finally {
    await service.close();
  }
}

/** A listed video model's limits (its `video` metadata, as a profile writes them). */
function videoSpecOf(model: { id: string; video?: unknown }): VideoModelSpec {
  const video = (model.video ?? {}) as {
    seconds?: VideoModelSpec["seconds"] | null;
    sizes?: VideoModelSpec["sizes"] | null;
  };
  return {
    id: model.id,
    ...(video.seconds ? { seconds: video.seconds } : {}),
    ...(video.sizes ? { sizes: video.sizes } : {}),
  };
}

/**
 * Declare `models` on the program.
 *
 * @example
 * registerModelsCommand(program, context, (code) => (exitCode = code));
 */
export function registerModelsCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("models")
    .summary("list the service's models")
    .description("List the chat models the service offers and the video models with their limits.")
    .addOption(connectionOption("--base-url <url>", "service base URL"))
    .addOption(connectionOption("--api-key <key>", "API key"))
    .option("--json", "print JSON")
    .action(async (flags: ModelsFlags) => done(await modelsCommand(flags, context)));
}
