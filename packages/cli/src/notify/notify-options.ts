import { Option } from "commander";
import { UsageError } from "../errors/cli-error.js";
import { DEFAULT_NOTIFY_DEADLINE_MS } from "./deliver-notification.js";

/** Where notifications go and how, as `--notify` and the environment set it. */
export interface NotifyConfig {
  /** http(s) URLs, each once, flags first. */
  urls: string[];
  /** `REELSMITH_NOTIFY_SECRET`: signs every delivery. */
  secret?: string;
  /** The whole delivery's limit in ms (`REELSMITH_NOTIFY_TIMEOUT` seconds, default 10). */
  deadlineMs: number;
}

/** The longest `REELSMITH_NOTIFY_TIMEOUT` taken: a notification never holds a job for long. */
const MAX_TIMEOUT_SECONDS = 300;

/**
 * A URL as messages show it: scheme, host and port only. A webhook URL's path and query
 * often are its secret (chat webhooks), so they are never printed.
 *
 * @example
 * displayUrl("https://hooks.example.com/services/T0/B0/XYZ"); // "https://hooks.example.com/…"
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = parsed.pathname !== "/" || parsed.search ? "/…" : "/";
    return `${parsed.protocol}//${parsed.host}${rest}`;
  } catch {
    return "(not a URL)";
  }
}

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : "th";
  return `${n}${n % 10 === 3 && n !== 13 ? "rd" : suffix}`;
}

function checkedUrl(value: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new UsageError(`${where} is not a URL`, {
      code: "invalid_notify_url",
      hint: "give an http(s) URL, e.g. --notify https://hooks.example.com/reelsmith",
    });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(
      `${where} is a ${parsed.protocol} URL; notifications are POSTed over HTTP`,
      {
        code: "invalid_notify_url",
        hint: "give an http(s) URL, e.g. --notify https://hooks.example.com/reelsmith",
      },
    );
  }
  return parsed.href;
}

/**
 * The notification settings of a run: `--notify` URLs, then those of `REELSMITH_NOTIFY`
 * (comma-separated), the secret of `REELSMITH_NOTIFY_SECRET` and the limit of
 * `REELSMITH_NOTIFY_TIMEOUT` (seconds). `undefined` when no URL is given. Checked before the
 * run starts: a bad URL or limit is a usage error (exit 2) that never prints a URL's path.
 *
 * @example
 * resolveNotifyConfig({ notify: ["https://hooks.example.com/x"] }, { REELSMITH_NOTIFY_TIMEOUT: "5" });
 * // { urls: ["https://hooks.example.com/x"], deadlineMs: 5000 }
 */
export function resolveNotifyConfig(
  flags: { notify?: string[] },
  env: Record<string, string | undefined>,
): NotifyConfig | undefined {
  const urls: string[] = [];
  (flags.notify ?? []).forEach((value, index) => {
    urls.push(checkedUrl(value, `the ${ordinal(index + 1)} --notify value`));
  });
  const fromEnv = (env.REELSMITH_NOTIFY ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  fromEnv.forEach((value, index) => {
    urls.push(checkedUrl(value, `the ${ordinal(index + 1)} URL of REELSMITH_NOTIFY`));
  });
  if (urls.length === 0) return undefined;
  const timeout = env.REELSMITH_NOTIFY_TIMEOUT?.trim();
  let deadlineMs = DEFAULT_NOTIFY_DEADLINE_MS;
  if (timeout) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
      throw new UsageError(
        `REELSMITH_NOTIFY_TIMEOUT must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got '${timeout}'`,
        { code: "invalid_notify_timeout", hint: "e.g. REELSMITH_NOTIFY_TIMEOUT=10 (the default)" },
      );
    }
    deadlineMs = Math.round(seconds * 1000);
  }
  const secret = env.REELSMITH_NOTIFY_SECRET || undefined;
  return { urls: [...new Set(urls)], ...(secret ? { secret } : {}), deadlineMs };
}

/**
 * The repeatable `--notify <url>` option of `run` and `resume`.
 *
 * @example
 * command.addOption(notifyOption());
 */
export function notifyOption(): Option {
  return new Option(
    "--notify <url>",
    "POST a JSON summary to this URL when the run ends (repeatable; also REELSMITH_NOTIFY)",
  ).argParser((value: string, previous: string[] = []) => [...previous, value]);
}
