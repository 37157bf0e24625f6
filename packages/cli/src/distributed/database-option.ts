import type { Coordinator } from "@reelsmith/distributed";
import { Option } from "commander";
import { addSecret, type CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";

/**
 * `--database <url>`: the PostgreSQL database that runs on many machines share, and what the
 * command does with it.
 * @example command.addOption(databaseOption());
 */
export function databaseOption(purpose = "run on many machines"): Option {
  return new Option(
    "--database <url>",
    `PostgreSQL URL shared by workers (else REELSMITH_DATABASE_URL): ${purpose}`,
  );
}

/**
 * The database URL from the flag or REELSMITH_DATABASE_URL (undefined when neither is set);
 * its password is registered as a secret, so no output ever shows it.
 * @example const url = databaseUrl(flags, context);
 */
export function databaseUrl(flags: { database?: string }, context: CliContext): string | undefined {
  const url = flags.database ?? context.env.REELSMITH_DATABASE_URL;
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new Error("not postgres");
    if (parsed.password) addSecret(context, decodeURIComponent(parsed.password));
  } catch {
    throw new UsageError(`--database must be a postgres:// URL, got "${url}"`, {
      code: "invalid_database_url",
      hint: "e.g. --database postgres://user:password@host:5432/reelsmith",
    });
  }
  return url;
}

/**
 * Like {@link databaseUrl}, for commands that cannot work without one.
 * @example const url = requireDatabaseUrl(flags, context, "status");
 */
export function requireDatabaseUrl(
  flags: { database?: string },
  context: CliContext,
  command: string,
): string {
  const url = databaseUrl(flags, context);
  if (!url) {
    throw new UsageError(`${command} needs the shared database`, {
      code: "database_required",
      hint: "pass --database postgres://… or set REELSMITH_DATABASE_URL",
    });
  }
  return url;
}

/**
 * How long each wait for the database at start-up may last (connection, schema lock, launch):
 * REELSMITH_DATABASE_TIMEOUT seconds, else 120 s.
 * @example const ms = databaseTimeoutMs(context);
 */
export function databaseTimeoutMs(context: CliContext, seconds?: number): number {
  const raw = seconds ?? context.env.REELSMITH_DATABASE_TIMEOUT;
  if (raw === undefined || raw === "") return 120_000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`REELSMITH_DATABASE_TIMEOUT must be a number of seconds, got "${raw}"`, {
      code: "invalid_database_timeout",
      hint: "e.g. REELSMITH_DATABASE_TIMEOUT=60",
    });
  }
  return value * 1000;
}

/**
 * Connects to the shared database for a command (creating or updating its schemas when
 * needed; with `readOnly`, a command that only reads, never: a database without reelsmith's
 * tables is then refused with code `database_empty`), with the start-up deadline (at most
 * `mostMs`, for a command that can do without the database) and Ctrl-C applied to every wait.
 * @example const coordinator = await openCoordinator(url, context);
 */
export async function openCoordinator(
  url: string,
  context: CliContext,
  options: { mostMs?: number; readOnly?: boolean } = {},
): Promise<Coordinator> {
  const { connect } = await import("@reelsmith/distributed");
  const timeoutMs = Math.min(
    databaseTimeoutMs(context),
    options.mostMs ?? Number.POSITIVE_INFINITY,
  );
  return connect(url, undefined, {
    timeoutMs,
    signal: context.signal,
    ...(options.readOnly ? { readOnly: true } : {}),
  });
}
