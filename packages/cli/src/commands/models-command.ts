import type { VideoModelSpec, VideoPrice } from "@reelsmith/core/catalog";
import type { Command } from "commander";
import { collectInput } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { formatTable } from "../render/format.js";
import type { ModelsFlags } from "./models-flags.js";
import { connectionOption } from "./run-command.js";

export type { ModelsFlags } from "./models-flags.js";

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
export async function modelsCommand(
  flags: ModelsFlags,
  context: CliContext,
  file?: string,
): Promise<number> {
  if (file !== undefined) {
    if (flags.writeConfig === undefined || flags.writeConfig === false)
      throw new UsageError(`\`${file}\`: models takes a file name only with --write-config`, {
        code: "file_without_write_config",
        hint: `reelsmith models --write-config ${file}`,
      });
    if (typeof flags.writeConfig === "string" && flags.writeConfig !== file)
      throw new UsageError(
        `two files to write: ${flags.writeConfig} (after --write-config) and ${file}`,
        { code: "two_config_files", hint: "name one file, e.g. --write-config acme.yaml" },
      );
    flags = { ...flags, writeConfig: file };
  }
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
  const { models, videoModels, kindUnknown, dialect } = listing;
  if (flags.json) {
    context.stdout.write(
      `${JSON.stringify({ models, videoModels, kindUnknown, dialect }, null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  const owner = (id: string) => String(models.find((model) => model.id === id)?.owned_by ?? "-");
  const rows = [["model", "owned by"]];
  for (const id of listing.chat) rows.push([id, owner(id)]);
  context.stdout.write(
    rows.length > 1
      ? `chat models at ${listing.baseURL}\n${formatTable(rows)}\n\n`
      : `chat models at ${listing.baseURL}: none listed as chat\n\n`,
  );
  if (kindUnknown.length > 0) {
    const unknownRows = [["listed without a type (chat or video)", "owned by"]];
    for (const id of kindUnknown) unknownRows.push([id, owner(id)]);
    context.stdout.write(
      `${formatTable(unknownRows)}\nchat steps may name these; a video step may too, its limits and price unknown (declare it under video_models: to check and price it)\n\n`,
    );
  }
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
  context.stdout.write(`dialect: ${dialect.dialect ?? "unknown"} (${dialect.reason})\n`);
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
  /** Ids listed as chat models (not video ones). */
  chat: string[];
  /** Ids listed without a type: chat or video, the service does not say. */
  kindUnknown: string[];
  /** The service's dialect: declared by the profile, or guessed from the list (or unknown). */
  dialect: { dialect?: string; reason: string };
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
  const { listedVideoSpec, sortListedModels } = await import("../config/listed-models.js");
  const profile = await loadCliProfile(context);
  const service = await openService(flags, context, (line) => context.stderr.write(`${line}\n`));
  try {
    const models = await service.client.models.list({ signal: context.signal });
    const sorted = sortListedModels(models);
    const fromProfile: ShownVideoModel[] = (profile?.loaded.catalog ?? []).map((model) => ({
      ...model,
      knownFrom: "profile",
    }));
    const known = new Set(fromProfile.map((model) => model.id));
    const listed: ShownVideoModel[] = sorted.video
      .filter((model) => !known.has(model.id))
      .map((model) => ({ ...listedVideoSpec(model), knownFrom: "service" }));
    const builtIn: ShownVideoModel[] =
      !profile && listed.length === 0 && service.builtIn
        ? (await import("@reelsmith/simulator/catalog")).videoModels.map((model) => ({
            ...model,
            knownFrom: "built-in",
          }))
        : [];
    const videoModels = [...fromProfile, ...listed, ...builtIn];
    const videoIds = new Set(videoModels.map((model) => model.id));
    const declared = profile?.loaded.profile.service?.dialect;
    return {
      baseURL: service.baseURL,
      builtIn: service.builtIn,
      models: models as ModelListing["models"],
      videoModels,
      chat: sorted.chat.filter((id) => !videoIds.has(id)),
      kindUnknown: sorted.kindUnknown.filter((id) => !videoIds.has(id)),
      dialect: declared
        ? { dialect: declared, reason: `declared in ${profile.shown}` }
        : sorted.dialect,
      ...(profile ? { profile: profile.shown } : {}),
    };
  } finally {
    await service.close();
  }
}

function describePrice(price: VideoPrice | undefined): string {
  const parts: string[] = [];
  if (price?.perClip !== undefined) parts.push(`${price.perClip} a clip`);
  if (price?.perSecond !== undefined) parts.push(`${price.perSecond} a second`);
  if (price?.perMegapixelSecond !== undefined)
    parts.push(`${price.perMegapixelSecond} a megapixel-second`);
  return parts.length > 0 ? parts.join(" + ") : "unknown";
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
    .argument("[file]", "with --write-config: the file to write (also --write-config FILE)")
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
      "\nExamples:\n  reelsmith models --base-url https://api.example.com\n  reelsmith models --write-config --video-model veo-3-fast acme.yaml",
    )
    .action(async (file: string | undefined, flags: ModelsFlags) =>
      done(await modelsCommand(flags, context, file)),
    );
}
