import { looksLikeSecretKey, maskSecretValues } from "@reelsmith/core/catalog";
import { InvalidArgumentError } from "commander";
import type { CliContext } from "../context.js";
import { CliError, UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Commander argument parser for an item or take number: a whole number from 0 up.
 * @example command.option("--item <n>", "the item", parseIndex);
 */
export function parseIndex(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number)) {
    throw new InvalidArgumentError(`expected a whole number from 0 up, got '${value}'.`);
  }
  return number;
}

/**
 * `--param key=value` pairs as a video step's params: a value that reads as JSON (a number,
 * true, false, null, a list, an object) is that value, any other is the text as written.
 * @example parseParamPairs(["seed=7", "negative_prompt=blurry, text"]) // { seed: 7, negative_prompt: "blurry, text" }
 */
/**
 * A take's prompt or param that holds what looks like a key: refused (exit 2) before anything
 * is journaled or sent, without showing it.
 *
 * @example
 * refuseKey("--prompt");
 */
export function refuseKey(where: string): never {
  throw new UsageError(
    `${where} holds what looks like a key (not shown); nothing was sent or written`,
    {
      code: "secret_in_argument",
      hint: "a prompt or param is sent to the service and kept in the run's journal: put the key in REELSMITH_API_KEY (or --api-key), never in a prompt or param",
    },
  );
}

export function parseParamPairs(pairs: readonly string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = at < 0 ? "" : pair.slice(0, at).trim();
    if (!key) {
      throw new UsageError(`--param expects key=value, got '${maskSecretValues(pair)}'`, {
        code: "invalid_param_flag",
        hint: "for example --param seed=7 or --param negative_prompt=blurry",
      });
    }
    if (FORBIDDEN_KEYS.has(key)) {
      throw new UsageError(`--param: '${key}' is not allowed as a param name`, {
        code: "invalid_param_flag",
      });
    }
    const text = pair.slice(at + 1);
    if (looksLikeSecretKey(key) || maskSecretValues(text) !== text) refuseKey(`--param ${key}`);
    let value: unknown = text;
    try {
      value = text.trim() === "" ? text : JSON.parse(text);
    } catch {
      value = text;
    }
    Object.defineProperty(params, key, { value, enumerable: true, writable: true });
  }
  return params;
}

/**
 * `--database` with `retake` or `pick`: refused, with what to do instead.
 * @example refuseDatabase("retake", flags);
 */
export function refuseDatabase(command: string, flags: { database?: string }): void {
  if (flags.database === undefined) return;
  throw new UsageError(`${command} works on a local run directory; --database is not supported`, {
    code: "distributed_take",
    hint: `a run made with --database keeps its clips in its workers' run directories: ${command} a local run (reelsmith run … without --database)`,
  });
}

/**
 * The runner's refusal of a retake or a pick (an unknown step, item or take…) as the CLI's
 * usage error (exit 2), naming the run directory as it was typed; other errors pass through.
 * The runner is loaded only here, on an error, to recognise its TakeError.
 * @example throw await asTakeUsageError(error, absolute, "runs/x", context);
 */
export async function asTakeUsageError(
  error: unknown,
  absolute: string,
  typed: string,
  context: CliContext,
): Promise<unknown> {
  const { TakeError } = await import("@reelsmith/runner/errors");
  if (!TakeError.isInstance(error)) return error;
  const shown = displayPath(absolute, context.cwd) || typed;
  return new CliError(`${shown}: ${error.reason.split(absolute).join(shown)}`, {
    code: error.code,
    category: "usage",
    cause: error,
  });
}
