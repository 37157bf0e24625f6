import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ProviderName } from "@reelsmith/core/catalog";
import type { ProviderProfile } from "@reelsmith/core/profile";
import { loadCliProfile } from "../config/cli-profile.js";
import { sortListedModels } from "../config/listed-models.js";
import { profileSchemaReference } from "../config/profile-schema-reference.js";
import { starterProfile } from "../config/starter-profile.js";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { openService } from "../services/open-service.js";
import type { ModelsFlags } from "./models-flags.js";

/** The file `--write-config` writes when it is given no name. */
export const DEFAULT_PROFILE_FILE = "reelsmith.config.yaml";

/**
 * `reelsmith models --write-config [FILE] [--video-model ID]…`: writes a starting provider
 * profile from what the service lists (chat models; video models with their metadata) and the
 * video models named, with each limit and price it cannot know as `null` and a comment to
 * fill it in, and `api_key_env: [REELSMITH_API_KEY]` (never a key). The dialect is the
 * profile's when one declares it, else `reference` (the interface's) unless the service showed
 * otherwise, with a comment saying what could not be told and when to pick `openai`. Refuses to replace an
 * existing file unless `--force`.
 *
 * @example
 * const code = await writeConfigCommand({ writeConfig: true, videoModel: ["veo-3-fast"] }, context);
 */
export async function writeConfigCommand(flags: ModelsFlags, context: CliContext): Promise<number> {
  const target = path.resolve(
    context.cwd,
    typeof flags.writeConfig === "string" ? flags.writeConfig : DEFAULT_PROFILE_FILE,
  );
  const shown = displayPath(target, context.cwd);
  if (existsSync(target) && !flags.force) {
    throw new UsageError(`${shown} already exists; nothing was written`, {
      code: "profile_exists",
      hint: "pass --force to replace it, or name another file: --write-config other.yaml",
    });
  }
  if (flags.provider !== undefined) {
    const { providerAccess } = await import("@reelsmith/core/catalog");
    if (!providerAccess(flags.provider as ProviderName).listsModels)
      return writeProviderStarter(flags, flags.provider as ProviderName, target, shown, context);
  }
  const profile = await loadCliProfile(context);
  const service = await openService(flags, context, (line) => context.stderr.write(`${line}\n`));
  let text: string;
  let listedModels: Awaited<ReturnType<typeof service.client.models.list>> = [];
  let dialectLine = "";
  try {
    const models = await service.client.models.list({ signal: context.signal });
    listedModels = models;
    const sorted = sortListedModels(models);
    const declared = profile?.loaded.profile.service?.dialect;
    text = starterProfile({
      schema: profileSchemaReference(path.dirname(target)),
      listedFrom: service.builtIn ? "the built-in simulator" : service.baseURL,
      ...(service.builtIn ? {} : { baseURL: service.baseURL }),
      dialect: (flags.provider as ProviderName | undefined) ?? declared ?? sorted.dialect.dialect,
      dialectReason: flags.provider
        ? `named with --provider ${flags.provider}`
        : declared
          ? `declared in ${profile?.shown}`
          : sorted.dialect.reason,
      chatModels: sorted.chat,
      listedVideoModels: sorted.video,
      namedVideoModels: [...(flags.videoModel ?? []), ...(flags.model ?? [])],
      kindUnknown: sorted.kindUnknown,
    });
    dialectLine = declared
      ? `dialect: ${declared} (declared in ${profile?.shown})`
      : `dialect: ${sorted.dialect.dialect} (${sorted.dialect.evidence ? sorted.dialect.reason : "the service interface's default: the service's list could not tell; the file's comment says when to pick openai"})`;
  } finally {
    await service.close();
  }
  await writeFile(target, text, { flag: flags.force ? "w" : "wx" });
  const { parse } = await import("yaml");
  const { profileUnknowns } = await import("@reelsmith/core/profile");
  const written = parse(text) as ProviderProfile;
  const videoIds = Object.keys(written.video_models ?? {});
  const chatCount = Object.keys(written.chat_models ?? {}).length;
  const toFill = new Map<string, string[]>();
  for (const unknown of profileUnknowns(written)) {
    if (unknown.section !== "video_models") continue;
    toFill.set(unknown.model, [...(toFill.get(unknown.model) ?? []), unknown.field]);
  }
  const kindUnknown = sortListedModels(listedModels).kindUnknown.filter(
    (id) => !videoIds.includes(id),
  );
  context.stdout.write(
    [
      `wrote ${shown}: ${videoIds.length} video model${videoIds.length === 1 ? "" : "s"}${videoIds.length > 0 ? ` (${videoIds.join(", ")})` : ""}, ${chatCount} chat model${chatCount === 1 ? "" : "s"}`,
      toFill.size > 0
        ? `fill in what is left null: ${[...toFill].map(([model, fields]) => `${model} (${fields.join(", ")})`).join("; ")} (\`reelsmith validate\` warns about each until then)`
        : videoIds.length > 0
          ? "every video model's limits and price came from the service's list"
          : "",
      kindUnknown.length > 0
        ? `${kindUnknown.length} model${kindUnknown.length === 1 ? " is" : "s are"} listed without a type (${kindUnknown.join(", ")}): the file's last comment says how to classify them`
        : "",
      videoIds.length === 0
        ? "the service lists no video models: declare each with --video-model ID (or by hand under video_models:)"
        : "",
      dialectLine,
      "the key stays in the environment: REELSMITH_API_KEY (see api_key_env)",
      "",
    ]
      .filter((line, index, lines) => line !== "" || index === lines.length - 1)
      .join("\n"),
  );
  return ExitCode.ok;
}

/**
 * `--write-config --provider NAME` for a provider that lists no models: the registry's
 * starter (its dialect, base URL and key variables) with the models named with `--model`,
 * written without asking any service.
 */
async function writeProviderStarter(
  flags: ModelsFlags,
  provider: ProviderName,
  target: string,
  shown: string,
  context: CliContext,
): Promise<number> {
  const { providerStarterProfile } = await import("../config/provider-starter-profile.js");
  const { providerAccess, providerModalities } = await import("@reelsmith/core/catalog");
  const models = [...(flags.model ?? []), ...(flags.videoModel ?? [])];
  const text = providerStarterProfile({
    schema: profileSchemaReference(path.dirname(target)),
    provider,
    models,
  });
  await writeFile(target, text, { flag: flags.force ? "w" : "wx" });
  const access = providerAccess(provider);
  const [first] = providerModalities(provider);
  context.stdout.write(
    [
      `wrote ${shown}: a profile for ${provider} with ${models.length} ${first} model${models.length === 1 ? "" : "s"}${models.length > 0 ? ` (${models.join(", ")})` : ""}`,
      models.length > 0
        ? "fill in what is left null from each model's page (`reelsmith validate` warns about each until then)"
        : `${provider} lists no models: name each with --model ID`,
      `the key stays in the environment: ${(access.keyParts ?? [access.keyEnv]).join(" and ")} (see api_key_env)`,
      "",
    ].join("\n"),
  );
  return ExitCode.ok;
}
