import type { FoundProfile, LoadedProfile, ProfileService } from "@reelsmith/runner/profile";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { type Connection, resolveConnection } from "./connection.js";

/** The provider profile a command uses, as found and loaded. */
export interface CliProfile {
  loaded: LoadedProfile;
  found: FoundProfile;
  /** The file as messages show it (relative to the working directory when inside it). */
  shown: string;
}

const loading = new WeakMap<CliContext, Promise<CliProfile | undefined>>();
const warned = new WeakSet<CliContext>();

const origins: Record<FoundProfile["from"], string> = {
  config: "named with --config",
  REELSMITH_CONFIG: "named in REELSMITH_CONFIG",
  search: "found in this directory or a parent",
};

async function load(context: CliContext): Promise<CliProfile | undefined> {
  // Loaded on use: only the profile side of the runner (yaml and core's profile checks).
  const { findProfile, formatDiagnostic, loadProfile, ProfileError } = await import(
    "@reelsmith/runner/profile"
  );
  const found = findProfile({ cwd: context.cwd, config: context.config, env: context.env });
  if (!found) return undefined;
  const shown = displayPath(found.path, context.cwd);
  try {
    return { loaded: await loadProfile(found.path, { displayPath: shown }), found, shown };
  } catch (error) {
    if (!ProfileError.isInstance(error)) throw error;
    for (const diagnostic of error.diagnostics)
      context.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
    const count = error.diagnostics.length;
    // A file that cannot be read has nothing to fix inside it: its own hint says what to do.
    const unreadable = error.diagnostics.every(
      (diagnostic) => diagnostic.code === "PROFILE_UNREADABLE",
    );
    throw new UsageError(
      `the provider profile ${shown} (${origins[found.from]}) has ${count === 1 ? "a problem" : `${count} problems`}; nothing was sent`,
      {
        code: "invalid_profile",
        ...(unreadable
          ? {}
          : {
              hint: "fix the problems above (`reelsmith validate` checks the profile and pipelines without sending anything)",
            }),
        cause: error,
      },
    );
  }
}

/**
 * The provider profile of this command: `--config FILE`, else `REELSMITH_CONFIG`, else
 * `reelsmith.config.yaml` in the working directory or a parent; undefined when there is none.
 * Loaded once per command. A bad profile prints each problem as `file:line:column` with the
 * line and a caret on stderr, then throws a UsageError (exit 2).
 *
 * @example
 * const profile = await loadCliProfile(context);
 * const videoModels = profile?.loaded.catalog;
 */
export function loadCliProfile(context: CliContext): Promise<CliProfile | undefined> {
  let promise = loading.get(context);
  if (!promise) {
    promise = load(context);
    loading.set(context, promise);
  }
  return promise;
}

/**
 * The profile's warnings (one per video model whose limits or price it leaves unknown), as
 * formatted lines, the first time they are asked for in a command; none after.
 *
 * @example
 * for (const line of await takeProfileWarnings(context)) context.stderr.write(`${line}\n`);
 */
export async function takeProfileWarnings(context: CliContext): Promise<string[]> {
  const profile = await loadCliProfile(context);
  if (!profile || warned.has(context)) return [];
  warned.add(context);
  const { formatDiagnostic, profileWarnings } = await import("@reelsmith/runner/profile");
  return profileWarnings(profile.loaded).map((warning) => formatDiagnostic(warning));
}

/**
 * The service to talk to and how: flags, then `REELSMITH_BASE_URL`/`REELSMITH_API_KEY`,
 * then the provider profile (`service.base_url`, `api_key_env`), then `OPENAI_*`; with the
 * profile and what it says of the service (dialect, idempotency, listing, poll interval,
 * video catalog) when there is one.
 *
 * @example
 * const { connection, service } = await resolveService({ baseUrl }, context);
 * createClient({ ...service?.clientOptions, baseURL: connection.baseURL, apiKey: connection.apiKey });
 */
export async function resolveService(
  flags: { baseUrl?: string; apiKey?: string },
  context: CliContext,
): Promise<{ connection: Connection; profile?: CliProfile; service?: ProfileService }> {
  const profile = await loadCliProfile(context);
  if (!profile) return { connection: resolveConnection(flags, context.env) };
  const { serviceFromProfile } = await import("@reelsmith/runner/profile");
  const service = serviceFromProfile(profile.loaded, context.env);
  return { connection: resolveConnection(flags, context.env, service), profile, service };
}
