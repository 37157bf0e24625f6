import type { VideoModelSpec, VideoPrice } from "@reelsmith/core/catalog";
import type { Command } from "commander";
import { collectInput } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { formatTable } from "../render/format.js";
import { connectionOption } from "./run-command.js";

/** Flags of `reelsmith models`. */
export interface ModelsFlags {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  /** `--write-config [file]`: true without a file name. */
  writeConfig?: string | boolean;
  videoModel?: string[];
  force?: boolean;
}

/** A video model as `models` shows it, and where its limits were learned. */
export type ShownVideoModel = VideoModelSpec & { knownFrom: "profile" | "service" | "built-in" };

/**
 * `reelsmith models`: the service's chat models (from /v1/models) and the video models with
 * their limits and prices: the provider profile's, then those the service lists with
 * metadata (the built-in simulator's own when it is the service). With `--write-config`,
 * writes a starting profile instead (see {@link writeConfigCommand}).
 *
 * @example
 * const code = await modelsCommand({}, context);
 */
export async function modelsCommand(flags: ModelsFlags, context: CliContext): Promise<number> {
  if (flags.writeConfig !== undefined && flags.writeConfig !== false) {
    const { writeConfigCommand } = await import("./write-config-command.js");
    return writeConfigCommand(flags, context);
  }
  if (flags.videoModel && flags.videoModel.length > 0) {
    throw new UsageError("--video-model names a model to write with --write-config", {
      code: "video_model_without_write_config",
      hint: "add --write-config [file] to write a starting profile that declares it",
    });
  }
  const { describeSeconds, describeSizes } = await import("@reelsmith/core/catalog");
  const listing = await listModels(flags, context);
  const { models, videoModels } = listing;
  if (flags.json) {
    context.stdout.write(`${JSON.stringify({ models, videoModels }, null, 2)}\n`);
    return ExitCode.ok;
  }
  const videoIds = new Set(videoModels.map((model) => model.id));
  const rows = [["model", "owned by"]];
  for (const model of models) {
    if (!videoIds.has(model.id) && model.type !== "video")
      rows.push([model.id, String(model.owned_by ?? "-")]);
  }
  context.stdout.write(`chat models at ${listing.baseURL}\n${formatTable(rows)}\n\n`);
  const videoRows = [["video model", "seconds", "sizes", "price (credits)", "known from"]];
  for (const model of videoModels) {
    videoRows.push([
      model.id,
      model.seconds ? describeSeconds(model.seconds) : "unknown",
      model.sizes ? describeSizes(model.sizes) : "unknown",
      describePrice(model.price),
      model.knownFrom === "profile" && listing.profile ? listing.profile : model.knownFrom,
    ]);
  }
  context.stdout.write(`${formatTable(videoRows)}\n`);
  return ExitCode.ok;
}

/** What {@link listModels} found. */
export interface ModelListing {
  /** The service asked (the built-in simulator's loopback address when it is the service). */
  baseURL: string;
  builtIn: boolean;
  /** Every model the service lists (`GET /v1/models`). */
  models: { id: string; type?: string; owned_by?: string; [field: string]: unknown }[];
  /** The video models with their limits and prices, and where each was learned. */
  videoModels: ShownVideoModel[];
  /** The provider profile's path as shown, when there is one. */
  profile?: string;
}

/**
 * The service's models and the video models with their limits and prices (the provider
 * profile's, then those the service lists, then the built-in simulator's own), without
 * printing: one free `GET /v1/models`. Notes on the service go to the context's stderr.
 *
 * @example
 * const { videoModels } = await listModels({}, context);
 */
export async function listModels(
  flags: Pick<ModelsFlags, "baseUrl" | "apiKey">,
  context: CliContext,
): Promise<ModelListing> {
  const { loadCliProfile } = await import("../config/cli-profile.js");
  const { openService } = await import("../services/open-service.js");
  const profile = await loadCliProfile(context);
  const service = await openService(flags, context, (line) => context.stderr.write(`${line}\n`));
  try {
    const models = await service.client.models.list({ signal: context.signal });
    const fromProfile: ShownVideoModel[] = (profile?.loaded.catalog ?? []).map((model) => ({
      ...model,
      knownFrom: "profile",
    }));
    const known = new Set(fromProfile.map((model) => model.id));
    const listed: ShownVideoModel[] = models
      .filter((model) => model.type === "video" && !known.has(model.id))
      .map((model) => ({ ...videoSpecOf(model), knownFrom: "service" }));
    const builtIn: ShownVideoModel[] =
      !profile && listed.length === 0 && service.builtIn
        ? (await import("@reelsmith/simulator/catalog")).videoModels.map((model) => ({
            ...model,
            knownFrom: "built-in",
          }))
        : [];
    return {
      baseURL: service.baseURL,
      builtIn: service.builtIn,
      models: models as ModelListing["models"],
      videoModels: [...fromProfile, ...listed, ...builtIn],
      ...(profile ? { profile: profile.shown } : {}),
    };
  } finally {
    await service.close();
  }
}

function describePrice(price: VideoPrice | undefined): string {
  if (!price || (price.perClip === undefined && price.perSecond === undefined)) return "unknown";
  const parts: string[] = [];
  if (price.perClip !== undefined) parts.push(`${price.perClip} a clip`);
  if (price.perSecond !== undefined) parts.push(`${price.perSecond} a second`);
  return parts.join(" + ");
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
    .summary("list the service's models, or write a starting provider profile")
    .description(
      "List the chat models the service offers and the video models with their limits and prices (the provider profile's, then those the service lists). With --write-config, write a starting provider profile from the service's model list and the video models named with --video-model.",
    )
    .addOption(connectionOption("--base-url <url>", "service base URL"))
    .addOption(connectionOption("--api-key <key>", "API key"))
    .option("--json", "print JSON")
    .option(
      "--write-config [file]",
      "write a starting provider profile (default reelsmith.config.yaml); unknown limits and prices are null, to fill in",
    )
    .option(
      "--video-model <id>",
      "with --write-config: a video model to declare, listed or not (repeatable)",
      collectInput,
      [],
    )
    .option("--force", "with --write-config: replace an existing file")
    .addHelpText(
      "after",
      "\nExamples:\n  reelsmith models --base-url https://api.example.com\n  reelsmith models --write-config --video-model veo-3-fast",
    )
    .action(async (flags: ModelsFlags) => done(await modelsCommand(flags, context)));
}
