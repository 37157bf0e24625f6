import {
  type Modality,
  modalities,
  modalitySection,
  providerNames,
  type VideoModelSpec,
  type VideoPrice,
} from "@reelsmith/core/catalog";
import { type Command, Option } from "commander";
import { collectInput } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { formatTable } from "../render/format.js";
import type { ModelsFlags } from "./models-flags.js";
import { connectionOption } from "./run-command.js";

export type { ModelsFlags } from "./models-flags.js";

/** Where `models` learned of a model: the provider profile, the service's list, the built-in simulator. */
export type KnownFrom = "profile" | "service" | "built-in";

/** A video model as `models` shows it, and where its limits were learned. */
export type ShownVideoModel = VideoModelSpec & { knownFrom: KnownFrom };

/** A model of another kind (chat, image, speech, transcription) as `models` shows it. */
export interface ShownModel {
  id: string;
  knownFrom: KnownFrom;
}

/**
 * The modalities `models` shows in tables of ids, after chat (listed first, with the service)
 * and before video (with its limits and prices): every other modality core declares.
 */
export type MediaModality = Exclude<Modality, "chat" | "video">;
const mediaModalities = modalities.filter(
  (modality): modality is MediaModality => modality !== "chat" && modality !== "video",
);

/**
 * `reelsmith models`: every kind of model found: chat, image, speech and transcription models
 * (the provider profile's sections, then what /v1/models lists by `type`, then the built-in
 * simulator's own when it is the service), and the video models with their limits and prices:
 * the provider profile's, then those the service lists with metadata (the built-in
 * simulator's own when it is the service). With `--write-config`,
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
  if (flags.provider !== undefined) {
    const { isProviderName, providerNames } = await import("@reelsmith/core/catalog");
    if (!isProviderName(flags.provider))
      throw new UsageError(`--provider ${flags.provider}: no such provider`, {
        code: "unknown_provider",
        hint: `use one of ${providerNames.join(", ")}`,
      });
  }
  if (flags.writeConfig !== undefined && flags.writeConfig !== false) {
    const { writeConfigCommand } = await import("./write-config-command.js");
    return writeConfigCommand(flags, context);
  }
  if (flags.model && flags.model.length > 0) {
    throw new UsageError("--model names a model to write with --write-config --provider", {
      code: "model_without_write_config",
      hint: "add --write-config [file] to write a starting profile that declares it",
    });
  }
  if (flags.videoModel && flags.videoModel.length > 0) {
    throw new UsageError("--video-model names a model to write with --write-config", {
      code: "video_model_without_write_config",
      hint: "add --write-config [file] to write a starting profile that declares it",
    });
  }
  const { describeSeconds, describeSizes, providerAccess, providerModalities } = await import(
    "@reelsmith/core/catalog"
  );
  if (flags.provider !== undefined && !providerAccess(flags.provider as never).listsModels) {
    const provider = flags.provider as Parameters<typeof providerAccess>[0];
    const access = providerAccess(provider);
    const serves = providerModalities(provider);
    if (flags.json) {
      context.stdout.write(
        `${JSON.stringify({ provider, listsModels: false, modalities: serves, keyEnv: access.keyParts ?? [access.keyEnv], baseURL: access.defaultBaseURL ?? null }, null, 2)}\n`,
      );
      return ExitCode.ok;
    }
    context.stdout.write(
      [
        `${provider}: ${access.description}`,
        `serves: ${serves.join(", ")}; its key: ${(access.keyParts ?? [access.keyEnv]).join(" and ")}${access.defaultBaseURL ? `; at ${access.defaultBaseURL}` : ""}`,
        `${provider} lists no models: name the ones you use in a profile, e.g.`,
        `  reelsmith models --write-config --provider ${provider} --model ID`,
        "",
      ].join("\n"),
    );
    return ExitCode.ok;
  }
  const listing = await listModels(flags, context);
  const { models, videoModels, chatModels, mediaModels, kindUnknown, dialect } = listing;
  if (flags.json) {
    context.stdout.write(
      `${JSON.stringify({ models, chatModels, videoModels, ...Object.fromEntries(Object.entries(mediaModels).map(([kind, shown]) => [`${kind}Models`, shown])), kindUnknown, dialect }, null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  const owner = (id: string) => String(models.find((model) => model.id === id)?.owned_by ?? "-");
  const from = (shown: ShownModel) =>
    shown.knownFrom === "profile" && listing.profile ? listing.profile : shown.knownFrom;
  const rows = [["chat model", "owned by", "known from"]];
  for (const shown of listing.chatModels) rows.push([shown.id, owner(shown.id), from(shown)]);
  context.stdout.write(
    rows.length > 1
      ? `models at ${listing.baseURL}\n${formatTable(rows)}\n\n`
      : `models at ${listing.baseURL}: no chat model listed as chat${listing.profile ? ` or declared in ${listing.profile}` : ""}\n\n`,
  );
  for (const [kind, shown] of Object.entries(listing.mediaModels)) {
    if (shown.length === 0) continue;
    const kindRows = [[`${kind} model`, "owned by", "known from"]];
    for (const entry of shown) kindRows.push([entry.id, owner(entry.id), from(entry)]);
    context.stdout.write(`${formatTable(kindRows)}\n\n`);
  }
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
  context.stdout.write(`dialect: ${dialect.dialect} (${dialect.reason})\n`);
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
  /** The chat models: the provider profile's (`chat_models`), then those the service lists as chat. */
  chatModels: ShownModel[];
  /**
   * The image, speech and transcription models: the provider profile's sections, then those the
   * service lists with that `type`, then the built-in simulator's own when it is the service.
   */
  mediaModels: Record<MediaModality, ShownModel[]>;
  /** Ids listed without a type: chat or video, the service does not say. */
  kindUnknown: string[];
  /** The service's dialect: declared by the profile, else reference, with or without the service's evidence. */
  dialect: { dialect: string; evidence?: boolean; reason: string };
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
    const raw = profile?.loaded.profile;
    /** A section's models: the profile's, then the listed ones, then the built-in simulator's. */
    const section = (
      own: Record<string, unknown> | undefined,
      listedIds: readonly string[],
      builtInIds: readonly string[],
    ): ShownModel[] => {
      const shown: ShownModel[] = Object.keys(own ?? {}).map((id) => ({
        id,
        knownFrom: "profile",
      }));
      const add = (id: string, knownFrom: KnownFrom) => {
        if (!shown.some((entry) => entry.id === id)) shown.push({ id, knownFrom });
      };
      for (const id of listedIds) add(id, "service");
      if (!profile && service.builtIn) for (const id of builtInIds) add(id, "built-in");
      return shown;
    };
    const simulator =
      !profile && service.builtIn
        ? (await import("@reelsmith/simulator/catalog")).modelCatalogs
        : undefined;
    const idsOf = (entries: readonly { id: string }[] | undefined) =>
      (entries ?? []).map((entry) => entry.id);
    const chat = sorted.chat.filter((id) => !videoIds.has(id));
    return {
      baseURL: service.baseURL,
      builtIn: service.builtIn,
      models: models as ModelListing["models"],
      videoModels,
      chatModels: section(raw?.chat_models, chat, []).filter((entry) => !videoIds.has(entry.id)),
      mediaModels: Object.fromEntries(
        mediaModalities.map((modality) => [
          modality,
          section(
            raw?.[modalitySection(modality)],
            sorted.byModality[modality],
            idsOf(simulator?.[modalitySection(modality)]),
          ),
        ]),
      ) as Record<MediaModality, ShownModel[]>,
      chat,
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
      "List every model found: chat, image, speech and transcription models (the provider profile's sections, then those the service lists by type) and the video models with their limits and prices (the provider profile's, then those the service lists). With --write-config, write a starting provider profile from the service's model list and the video models named with --video-model.",
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
    .addOption(
      new Option(
        "--provider <name>",
        "a provider of the registry: its models where it lists them, else what it serves; with --write-config, its starter profile",
      ).choices(providerNames),
    )
    .option(
      "--model <id>",
      "with --write-config --provider: a model to declare (an endpoint id such as fal-ai/flux/dev; repeatable)",
      collectInput,
      [],
    )
    .addHelpText(
      "after",
      "\nExamples:\n  reelsmith models --base-url https://api.example.com\n  reelsmith models --write-config --video-model veo-3-fast acme.yaml\n  reelsmith models --write-config --provider fal --model fal-ai/kling-video/v2.1/standard/text-to-video",
    )
    .action(async (file: string | undefined, flags: ModelsFlags) =>
      done(await modelsCommand(flags, context, file)),
    );
}
