import { createClient } from "@reelsmith/core";
import { providerAccess } from "@reelsmith/core/catalog";
import type { ProfileAccountService } from "@reelsmith/runner/profile";
import { addSecret, type CliContext } from "../context.js";
import { listModels, type ModelsAnswer } from "./list-models.js";

/** What `reelsmith doctor` found out about one account of the profile's `providers:`. */
export interface AccountCheck {
  /** Its name under `providers:`. */
  name: string;
  dialect: string;
  /** `configured`: at its `base_url`; `built-in`: a simulator of its dialect, started per run. */
  mode: "configured" | "built-in";
  /** Its `base_url`, when the profile sets one. */
  baseURL?: string;
  /**
   * Whether its key is set, from which variable(s); the variables it names, and whether each is
   * a part of the key (`parted`: all are needed) rather than one to pick. Never the key.
   */
  apiKey: { set: boolean; variable?: string; variables: string[]; parted: boolean };
  /** Its `max_concurrent_jobs`, when the profile sets one. */
  maxConcurrentJobs?: number;
  /**
   * Its `GET /v1/models`, for a configured account of a provider that lists its models (the
   * others are asked nothing: their key is first used by a run's first request).
   */
  models?: ModelsAnswer;
  /** Why this account would stop a run, in words, with what to do. */
  problem?: string;
}

/** The key's variables in words: `FAL_KEY`, or each part of a parted key. */
function keyHint(account: ProfileAccountService, where: string): string {
  const named = account.apiKeyVariables;
  if (named.length === 0)
    return `name the variable that holds its key in providers.${account.name}.api_key_env of ${where}, and set it`;
  const parts = providerAccess(account.clientOptions.dialect ?? "reference").keyParts;
  return parts && parts.length > 1
    ? `set each of ${named.join(" and ")} (providers.${account.name}.api_key_env, one variable per part of the key)`
    : `set ${named.join(" or ")} (providers.${account.name}.api_key_env)`;
}

/** Why a run would refuse this account before sending anything, as the run says it. */
function problemOf(
  account: ProfileAccountService,
  serviceConfigured: boolean,
  where: string,
): string | undefined {
  // A run on the built-in simulator runs every account on one of its dialect (an account with
  // an address there is refused before this, as a run refuses it).
  if (!serviceConfigured) return undefined;
  if (!account.baseURL)
    return `the provider \`${account.name}\` of ${where} has no base_url — set providers.${account.name}.base_url to the provider's API address`;
  if (!account.apiKey)
    return `no API key for the provider \`${account.name}\` (${account.baseURL}) — ${keyHint(account, where)}`;
  return undefined;
}

/**
 * Each account of the profile's `providers:`: where it is, whether its key is set, and, for a
 * configured account of a provider that lists its models, whether it answers `GET /v1/models`
 * with its key (no retries, `timeoutMs` at most). Every account a run would refuse says why.
 *
 * @example
 * const accounts = await checkAccounts(service.accounts, { serviceConfigured: true, where: "reelsmith.config.yaml" }, context, 5000);
 */
export async function checkAccounts(
  accounts: readonly ProfileAccountService[],
  given: { serviceConfigured: boolean; where: string },
  context: CliContext,
  timeoutMs: number,
): Promise<AccountCheck[]> {
  return Promise.all(
    accounts.map(async (account): Promise<AccountCheck> => {
      const dialect = account.clientOptions.dialect ?? "reference";
      addSecret(context, account.apiKey);
      const problem = problemOf(account, given.serviceConfigured, given.where);
      const configured = given.serviceConfigured && account.baseURL !== undefined;
      const check: AccountCheck = {
        name: account.name,
        dialect,
        mode: configured ? "configured" : "built-in",
        ...(account.baseURL ? { baseURL: account.baseURL } : {}),
        apiKey: {
          set: Boolean(account.apiKey),
          ...(account.apiKeyVariable ? { variable: account.apiKeyVariable } : {}),
          variables: [...account.apiKeyVariables],
          parted: (providerAccess(dialect).keyParts?.length ?? 1) > 1,
        },
        ...(account.maxConcurrentJobs !== undefined
          ? { maxConcurrentJobs: account.maxConcurrentJobs }
          : {}),
        ...(problem ? { problem } : {}),
      };
      if (problem || !configured || !providerAccess(dialect).listsModels) return check;
      const client = createClient({
        ...account.clientOptions,
        baseURL: account.baseURL,
        apiKey: account.apiKey,
        maxRetries: 0,
        timeoutMs,
      });
      check.models = await listModels(
        client,
        timeoutMs,
        context.signal,
        `check ${account.apiKeyVariable} (providers.${account.name}.api_key_env)`,
      );
      if (!check.models.reachable)
        check.problem = `the provider \`${account.name}\` at ${account.baseURL} did not answer GET /v1/models: ${check.models.error}`;
      return check;
    }),
  );
}
