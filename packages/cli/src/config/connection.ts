import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { baseURLProblem } from "@reelsmith/core/catalog";
import { UsageError } from "../errors/cli-error.js";

/** Where a setting came from, for messages (never the value of a key). */
export type SettingSource = "flag" | "REELSMITH" | "profile" | "OPENAI" | "none";

/** The service the CLI talks to. */
export interface Connection {
  baseURL?: string;
  apiKey?: string;
  baseURLSource: SettingSource;
  apiKeySource: SettingSource;
  /** With `apiKeySource: "profile"`: the variable of `service.api_key_env` that held the key. */
  apiKeyVariable?: string;
}

/** What a provider profile contributes: its `service.base_url` and the key its `api_key_env` found. */
export interface ProfileConnection {
  baseURL?: string;
  apiKey?: string;
  apiKeyVariable?: string;
}

/**
 * The environment the CLI sees: the real environment over the values of a `.env` file in
 * `cwd` (a `.env` never overrides a variable that is set).
 *
 * @example
 * const env = loadEnvironment(process.cwd(), process.env);
 */
export function loadEnvironment(
  cwd: string,
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  let fromFile: Record<string, string> = {};
  try {
    const text = readFileSync(path.join(cwd, ".env"));
    // dotenv is loaded only when there is a .env to read (start-up of every command).
    const { parse } = createRequire(import.meta.url)("dotenv") as typeof import("dotenv");
    fromFile = parse(text);
  } catch {
    // No .env (or unreadable): the real environment alone.
  }
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}

function pick(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  names: [string, string],
  fromProfile: string | undefined,
): [string | undefined, SettingSource] {
  if (flag) return [flag, "flag"];
  const [reelsmith, openai] = names;
  if (env[reelsmith]) return [env[reelsmith], "REELSMITH"];
  if (fromProfile) return [fromProfile, "profile"];
  if (env[openai]) return [env[openai], "OPENAI"];
  return [undefined, "none"];
}

/**
 * Resolve the base URL and API key: flags, then `REELSMITH_BASE_URL`/`REELSMITH_API_KEY`,
 * then the provider profile (`service.base_url`, the first set variable of `api_key_env`),
 * then `OPENAI_BASE_URL`/`OPENAI_API_KEY` (pass an environment from {@link loadEnvironment}).
 *
 * @example
 * resolveConnection({ baseUrl: undefined, apiKey: "sk-1" }, { REELSMITH_BASE_URL: "http://x" });
 * // { baseURL: "http://x", apiKey: "sk-1", baseURLSource: "REELSMITH", apiKeySource: "flag" }
 */
export function resolveConnection(
  flags: { baseUrl?: string; apiKey?: string },
  env: Record<string, string | undefined>,
  profile: ProfileConnection = {},
): Connection {
  const [baseURL, baseURLSource] = pick(
    flags.baseUrl,
    env,
    ["REELSMITH_BASE_URL", "OPENAI_BASE_URL"],
    profile.baseURL,
  );
  if (baseURL !== undefined) {
    // Refused where it is first read, so no run, database row or message ever holds it.
    const problem = baseURLProblem(baseURL);
    if (problem) {
      const where = {
        flag: "--base-url",
        REELSMITH: "REELSMITH_BASE_URL",
        profile: "the profile's service.base_url",
        OPENAI: "OPENAI_BASE_URL",
        none: "the base URL",
      }[baseURLSource];
      const credentials = problem.includes("credentials");
      throw new UsageError(`${where}: ${problem.replace(/\. Put the key.*$/, "")}`, {
        code: credentials ? "base_url_credentials" : "invalid_base_url",
        hint: credentials
          ? "put the key in REELSMITH_API_KEY (or --api-key) and give the base URL without it, e.g. http://host:port"
          : "give the service's address, e.g. https://api.example.com or http://127.0.0.1:8080",
      });
    }
  }
  const [apiKey, apiKeySource] = pick(
    flags.apiKey,
    env,
    ["REELSMITH_API_KEY", "OPENAI_API_KEY"],
    profile.apiKey,
  );
  return {
    baseURL,
    apiKey,
    baseURLSource,
    apiKeySource,
    ...(apiKeySource === "profile" && profile.apiKeyVariable
      ? { apiKeyVariable: profile.apiKeyVariable }
      : {}),
  };
}
