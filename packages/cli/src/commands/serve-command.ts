import { describeProviders, type ProviderName, providerNames } from "@reelsmith/core/catalog";
import type { ReplyStyle } from "@reelsmith/simulator";
import { type Command, Option } from "commander";
import { loadCliProfile } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { parseInteger, parsePort, parsePositiveNumber } from "./option-parsers.js";

/** Flags of `reelsmith serve`. */
export interface ServeFlags {
  port?: number;
  host?: string;
  apiKey?: string;
  timeScale?: number;
  seed?: number;
  faults?: string;
  replies?: ReplyStyle;
  chatModelsOnly?: boolean;
  dialect?: ProviderName;
}

/**
 * `reelsmith serve`: start the simulator, print its URL and key (and how to point reelsmith at
 * it), and keep it running until the context's signal aborts (Ctrl-C). With a provider
 * profile (`--config`, `REELSMITH_CONFIG` or `reelsmith.config.yaml`) it serves that
 * profile's models, limits, parameters and prices, in the profile's dialect unless
 * `--dialect` says otherwise.
 *
 * @example
 * const code = await serveCommand({ port: 8080, dialect: "openai" }, context);
 */
export async function serveCommand(flags: ServeFlags, context: CliContext): Promise<number> {
  const profile = await loadCliProfile(context);
  const { startSimulator } = await import("@reelsmith/simulator");
  const simulator = await startSimulator({
    port: flags.port ?? 0,
    host: flags.host ?? "127.0.0.1",
    apiKey: flags.apiKey,
    timeScale: flags.timeScale,
    seed: flags.seed,
    faults: flags.faults,
    replies: flags.replies,
    ...(flags.chatModelsOnly ? { listVideoModels: false } : {}),
    ...(profile ? { profile: profile.loaded.profile } : {}),
    ...(flags.dialect ? { dialect: flags.dialect } : {}),
  });
  const videoIds = simulator.videoModels.map((model) => model.id).join(", ") || "none";
  const served = profile
    ? `serving the models of ${profile.shown} (video: ${videoIds}), dialect ${simulator.dialect}`
    : `serving the simulator's own models (video: ${videoIds}), dialect ${simulator.dialect}`;
  context.stdout.write(
    [
      `reelsmith simulator listening on ${simulator.url}`,
      `API key: ${simulator.apiKey}`,
      served,
      ...(flags.chatModelsOnly
        ? ["/v1/models lists the chat models only: clients learn the video models from a profile"]
        : []),
      "",
      "Point reelsmith at it with:",
      `  export REELSMITH_BASE_URL=${simulator.url}`,
      `  export REELSMITH_API_KEY=${simulator.apiKey}`,
      ...(profile ? [`  reelsmith run pipeline.yaml --config ${profile.shown}`] : []),
      "Press Ctrl-C to stop.",
      "",
    ].join("\n"),
  );
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await simulator.close();
  context.stdout.write("simulator stopped\n");
  return ExitCode.ok;
}

/**
 * Declare `serve` on the program.
 *
 * @example
 * registerServeCommand(program, context, (code) => (exitCode = code));
 */
export function registerServeCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("serve")
    .summary("run the service simulator")
    .description(
      "Run the service simulator on loopback: chat, real MP4 video jobs, injectable faults. With a provider profile (--config, REELSMITH_CONFIG or reelsmith.config.yaml) it serves that profile's models, limits, parameters and prices, and refuses what they refuse. Prints its URL and key; runs until Ctrl-C.",
    )
    .option("--port <n>", "port (0 picks a free one)", parsePort, 0)
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--api-key <key>", "the key clients must send (default: a random one)")
    .option(
      "--time-scale <x>",
      "job durations multiplier (1 = realistic, 0.01 = fast)",
      parsePositiveNumber,
    )
    .option("--seed <n>", "seed of the deterministic outputs", parseInteger)
    .addOption(
      new Option(
        "--replies <style>",
        "chat text: plausible (titles, summaries, short answers) or echo (restates the prompt)",
      )
        .choices(["plausible", "echo"])
        .default("plausible"),
    )
    .option(
      "--faults <spec>",
      'inject faults, e.g. "429@chat:0.3,503@videos.create:#1#2,fail-job:0.2"',
    )
    .addOption(
      new Option(
        "--dialect <dialect>",
        `the provider whose API it speaks: ${describeProviders()}; default the profile's, else reference`,
      ).choices(providerNames),
    )
    .option(
      "--chat-models-only",
      "list only the chat models in /v1/models, as a service that follows the interface strictly (clients then need a provider profile for the video models)",
    )
    .action(async (flags: ServeFlags) => done(await serveCommand(flags, context)));
}
