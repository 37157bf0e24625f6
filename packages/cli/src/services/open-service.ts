import { randomBytes } from "node:crypto";
import type { ReelsmithClient } from "@reelsmith/core";
import { providerAccess } from "@reelsmith/core/catalog";
import type { ProviderProfile } from "@reelsmith/core/profile";
import type { ProfileAccountService } from "@reelsmith/runner/profile";
import { resolveService } from "../config/cli-profile.js";
import { addSecret, type CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";

/** Time scale of the built-in simulator: clips take a small fraction of real service time. */
export const BUILT_IN_TIME_SCALE = 0.01;
/** Poll interval against the built-in simulator (its jobs finish in well under a second). */
export const BUILT_IN_POLL_INTERVAL_MS = 100;

/** A client to the configured service, or to a simulator started for this command. */
export interface OpenService {
  client: ReelsmithClient;
  baseURL: string;
  /** True when the CLI started the simulator in-process. */
  builtIn: boolean;
  /**
   * Each provider account's `max_concurrent_jobs`, by account name, as a run's
   * `accountLimits` take them (`{ fal: 2 }`); empty without `providers:`.
   */
  accountLimits: Record<string, number>;
  close(): Promise<void>;
}

/**
 * Connect to the service named by flags, environment or provider profile, with what the
 * profile says of it (dialect, idempotency keys, job listing, poll interval, video catalog);
 * with no base URL anywhere, start the simulator in-process on loopback with a random key
 * and a fast time scale, serving the profile's models when there is a profile, and say so in
 * one line through `note` (always with `builtIn`: a run begun on it resumes on it). The key
 * is registered as a secret before anything can print it; a service without one is refused
 * (UsageError `no_api_key`, naming the variables to set) unless `requireKey` is false (a
 * command that asks the service nothing).
 *
 * @example
 * const service = await openService({ baseUrl, apiKey }, context, (line) => renderer.note(line));
 * try { … } finally { await service.close(); }
 */
export async function openService(
  flags: { baseUrl?: string; apiKey?: string },
  context: CliContext,
  note: (message: string) => void,
  options: { builtIn?: boolean; requireKey?: boolean } = {},
): Promise<OpenService> {
  const { connection, profile, service } = await resolveService(flags, context);
  addSecret(context, connection.apiKey);
  for (const part of connection.apiKey?.split(":") ?? [])
    if (part.length >= 8) addSecret(context, part);
  // A provider whose key has parts (an access key and a secret key) takes them joined by `:`.
  const keyParts = providerAccess(service?.clientOptions.dialect ?? "reference").keyParts;
  // Loaded on use: commands that never reach a service start faster without them.
  const { createClient } = await import("@reelsmith/core");
  if (connection.baseURL && !options.builtIn) {
    if (!connection.apiKey && options.requireKey !== false) {
      // Refused here, before a run directory or a request: every request would be refused.
      const variables = profile?.loaded.profile.service?.api_key_env ?? [];
      if (keyParts && keyParts.length > 1) {
        const named = variables.length === keyParts.length ? variables : keyParts;
        throw new UsageError(`no API key for ${connection.baseURL}`, {
          code: "no_api_key",
          hint: `set each of ${named.join(" and ")}, named in that order in the profile's service.api_key_env (one variable per part of the key), or pass --api-key ${keyParts.map((part) => `<${part}>`).join(":")}`,
        });
      }
      throw new UsageError(`no API key for ${connection.baseURL}`, {
        code: "no_api_key",
        hint: `set ${[...variables, "REELSMITH_API_KEY"].filter((v, i, all) => all.indexOf(v) === i).join(" or ")}, or pass --api-key`,
      });
    }
    const fallback = createClient({
      ...service?.clientOptions,
      baseURL: connection.baseURL,
      apiKey: connection.apiKey,
    });
    const accounts = await openAccounts(service?.accounts ?? [], context, profile?.shown, {
      requireKey: options.requireKey !== false,
    });
    return {
      client: await routed(fallback, accounts.clients, profile?.loaded.profile),
      baseURL: fallback.baseURL,
      builtIn: false,
      accountLimits: accountLimits(service?.accounts ?? []),
      close: accounts.close,
    };
  }
  const addressed = (service?.accounts ?? []).filter((account) => account.baseURL);
  if (!options.builtIn && addressed.length > 0) {
    // Never a real account behind the built-in simulator's rules (free resubmission).
    throw new UsageError(
      `${profile?.shown ?? "the profile"} gives providers an address (${addressed.map((account) => `providers.${account.name}.base_url`).join(", ")}) but service has none`,
      {
        code: "no_service_address",
        hint: "set service.base_url (or REELSMITH_BASE_URL) to run against the real accounts, or remove the providers' base_url to run every account on the built-in simulator",
      },
    );
  }
  const apiKey = Array.from(
    { length: keyParts?.length ?? 1 },
    () => `sim-${randomBytes(18).toString("base64url")}`,
  ).join(":");
  addSecret(context, apiKey);
  const { startSimulator } = await import("@reelsmith/simulator");
  const simulator = await startSimulator({
    host: "127.0.0.1",
    port: 0,
    apiKey,
    timeScale: BUILT_IN_TIME_SCALE,
    ...(profile ? { profile: profile.loaded.profile } : {}),
  });
  const fallback = createClient({
    ...service?.clientOptions,
    baseURL: simulator.url,
    apiKey,
    pollIntervalMs: BUILT_IN_POLL_INTERVAL_MS,
    honoursIdempotencyKeys: true,
  });
  // Every provider account of the profile is stood in for by a simulator of its dialect.
  const accounts = await openAccounts(service?.accounts ?? [], context, profile?.shown, {
    builtIn: profile?.loaded.profile,
  });
  const stand = (service?.accounts ?? []).map(
    (account) => `${account.name}: ${account.clientOptions.dialect ?? "reference"}`,
  );
  const others = stand.length > 0 ? `, and one per provider account (${stand.join(", ")})` : "";
  note(
    profile
      ? `no service configured (REELSMITH_BASE_URL, or service.base_url in ${profile.shown}): using the built-in simulator at ${simulator.url}, serving the models of ${profile.shown}${others}; clips are synthetic`
      : `no service configured (REELSMITH_BASE_URL): using the built-in simulator at ${simulator.url}; clips are synthetic`,
  );
  return {
    client: await routed(fallback, accounts.clients, profile?.loaded.profile),
    baseURL: simulator.url,
    builtIn: true,
    accountLimits: accountLimits(service?.accounts ?? []),
    close: async () => {
      await accounts.close();
      await simulator.close();
    },
  };
}

/** The job limit of each account that states one, by name (the runner sizes its places from it). */
function accountLimits(accounts: readonly ProfileAccountService[]): Record<string, number> {
  return Object.fromEntries(
    accounts
      .filter((account) => account.maxConcurrentJobs !== undefined)
      .map((account) => [account.name, account.maxConcurrentJobs as number]),
  );
}

/** One client over the default service and the accounts, routing each model by its provider. */
async function routed(
  fallback: ReelsmithClient,
  accounts: Record<string, ReelsmithClient>,
  profile: ProviderProfile | undefined,
): Promise<ReelsmithClient> {
  if (!profile || Object.keys(accounts).length === 0) return fallback;
  const [{ routeClients }, { modelProviders }] = await Promise.all([
    import("@reelsmith/core"),
    import("@reelsmith/core/profile"),
  ]);
  return routeClients({ fallback, accounts, models: modelProviders(profile) });
}

/**
 * A client per provider account of the profile: at its `base_url` with the key of its
 * `api_key_env`, or, with `builtIn`, at a simulator of its dialect started here. An account
 * with no address, or (when keys are required) no key, is refused before anything is sent.
 */
async function openAccounts(
  accounts: readonly ProfileAccountService[],
  context: CliContext,
  shown: string | undefined,
  options: { requireKey?: boolean; builtIn?: ProviderProfile | undefined },
): Promise<{ clients: Record<string, ReelsmithClient>; close(): Promise<void> }> {
  const clients: Record<string, ReelsmithClient> = {};
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closeOne of closers.splice(0)) await closeOne();
  };
  if (accounts.length === 0) return { clients, close };
  const { createClient } = await import("@reelsmith/core");
  const where = shown ?? "the profile";
  try {
    for (const account of accounts) {
      const dialect = account.clientOptions.dialect ?? "reference";
      const keyParts = providerAccess(dialect).keyParts;
      if (options.builtIn) {
        const apiKey = Array.from(
          { length: keyParts?.length ?? 1 },
          () => `sim-${randomBytes(18).toString("base64url")}`,
        ).join(":");
        addSecret(context, apiKey);
        const { startSimulator } = await import("@reelsmith/simulator");
        const simulator = await startSimulator({
          host: "127.0.0.1",
          port: 0,
          apiKey,
          dialect,
          timeScale: BUILT_IN_TIME_SCALE,
          profile: options.builtIn,
        });
        closers.push(() => simulator.close());
        clients[account.name] = createClient({
          ...account.clientOptions,
          baseURL: simulator.url,
          apiKey,
          pollIntervalMs: BUILT_IN_POLL_INTERVAL_MS,
          honoursIdempotencyKeys: true,
        });
        continue;
      }
      if (!account.baseURL)
        throw new UsageError(`the provider \`${account.name}\` of ${where} has no base_url`, {
          code: "invalid_profile",
          hint: `set providers.${account.name}.base_url in ${where} to the provider's API address`,
        });
      addSecret(context, account.apiKey);
      for (const part of account.apiKey?.split(":") ?? [])
        if (part.length >= 8) addSecret(context, part);
      if (!account.apiKey && options.requireKey !== false) {
        const named = account.apiKeyVariables.length > 0 ? account.apiKeyVariables : [];
        throw new UsageError(
          `no API key for the provider \`${account.name}\` (${account.baseURL})`,
          {
            code: "no_api_key",
            hint:
              named.length === 0
                ? `name the variable that holds its key in providers.${account.name}.api_key_env of ${where}, and set it`
                : keyParts && keyParts.length > 1
                  ? `set each of ${named.join(" and ")} (providers.${account.name}.api_key_env, one variable per part of the key)`
                  : `set ${named.join(" or ")} (providers.${account.name}.api_key_env)`,
          },
        );
      }
      clients[account.name] = createClient({
        ...account.clientOptions,
        baseURL: account.baseURL,
        ...(account.apiKey ? { apiKey: account.apiKey } : {}),
      });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { clients, close };
}
