import type { ReplyStyle } from "@reelsmith/simulator";
import { type Command, Option } from "commander";
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
}

/**
 * `reelsmith serve`: start the simulator, print its URL and key (and how to point reelsmith at
 * it), and keep it running until the context's signal aborts (Ctrl-C).
 *
 * @example
 * const code = await serveCommand({ port: 8080 }, context);
 */
export async function serveCommand(flags: ServeFlags, context: CliContext): Promise<number> {
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
  });
  context.stdout.write(
    [
      `reelsmith simulator listening on ${simulator.url}`,
      `API key: ${simulator.apiKey}`,
      "",
      "Point reelsmith at it with:",
      `  export REELSMITH_BASE_URL=${simulator.url}`,
      `  export REELSMITH_API_KEY=${simulator.apiKey}`,
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
      "Run the service simulator on loopback: chat, real MP4 video jobs, injectable faults. Prints its URL and key; runs until Ctrl-C.",
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
    .option(
      "--chat-models-only",
      "list only the chat models in /v1/models, as a service that follows the interface strictly (clients then need a provider profile for the video models)",
    )
    .action(async (flags: ServeFlags) => done(await serveCommand(flags, context)));
}
