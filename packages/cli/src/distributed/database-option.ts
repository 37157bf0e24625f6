import { Option } from "commander";
import { addSecret, type CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";

/**
 * `--database <url>`: the PostgreSQL database that runs on many machines share.
 * @example command.addOption(databaseOption());
 */
export function databaseOption(): Option {
  return new Option(
    "--database <url>",
    "PostgreSQL URL shared by workers (else REELSMITH_DATABASE_URL): run on many machines",
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
