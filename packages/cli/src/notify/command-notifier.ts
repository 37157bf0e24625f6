import { addSecret, type CliContext } from "../context.js";
import { displayUrl, resolveNotifyConfig } from "./notify-options.js";
import { createRunNotifier, type RunNotifier } from "./run-notifier.js";

/**
 * The notifier of a `run` or `resume` command, or `undefined` when no URL is given
 * (`--notify`, `REELSMITH_NOTIFY`). Checks the settings before the run starts, keeps the
 * URLs and the signing secret out of every output, warns once when deliveries go unsigned,
 * and prints its lines on stderr (stdout stays the run's, NDJSON with `--json`).
 *
 * @example
 * const notifier = commandNotifier(flags, context, { path: file });
 */
export function commandNotifier(
  flags: { notify?: string[] },
  context: CliContext,
  pipeline: { name?: string; path?: string },
): RunNotifier | undefined {
  const config = resolveNotifyConfig(flags, context.env);
  if (!config) return undefined;
  // A webhook URL's path is often its credential; the secret signs: neither is ever printed.
  for (const url of config.urls) if (displayUrl(url) !== url) addSecret(context, url);
  addSecret(context, config.secret);
  if (!config.secret) {
    context.stderr.write(
      "warning: REELSMITH_NOTIFY_SECRET is not set: run notifications are sent unsigned, so receivers cannot tell them from forgeries\n",
    );
  }
  return createRunNotifier(config, {
    pipeline,
    note: (line) => context.stderr.write(`${line}\n`),
    secrets: context.secrets,
  });
}
