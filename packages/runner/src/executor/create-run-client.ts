import { createClient, type ReelsmithClient } from "@reelsmith/core";
import type { RunOptions } from "../run-options.js";

/**
 * The client a run uses: the given one, or core's client from `baseURL` (option, then the
 * base URL the resumed run kept in run.json, then the environment) and `apiKey` (option or
 * environment; never written anywhere).
 * @example const client = createRunClient({ baseURL: "http://127.0.0.1:4010" });
 */
export function createRunClient(options: RunOptions, keptBaseURL?: string): ReelsmithClient {
  if (options.client) return options.client as ReelsmithClient;
  const baseURL = options.baseURL ?? keptBaseURL;
  return createClient({
    ...(baseURL ? { baseURL } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
  });
}
