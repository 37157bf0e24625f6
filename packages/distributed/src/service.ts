import { createHash } from "node:crypto";
import { baseURLProblem } from "@reelsmith/core/catalog";

/** A service account: where requests go and whose limits and budget they count against. */
export interface ServiceAccount {
  baseURL: string;
  /** The account's name; default: derived from the API key (never stored itself). */
  account: string;
  /** Short stable id of base URL + account, used in queue names and budget scopes. */
  key: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Identifies a service account by base URL and account (an explicit name, or a digest of
 * the API key so that the key itself is never written anywhere). Throws for a base URL that
 * holds credentials (`http://user:key@host`), which would be stored with the run.
 * @example serviceAccount("https://media.example.com", { apiKey: "sk-…" }).key // "3f2a…"
 */
export function serviceAccount(
  baseURL: string,
  options: { account?: string; apiKey?: string },
): ServiceAccount {
  const base = baseURL.replace(/\/+$/, "");
  // The base URL is stored with every run and service row: never one that holds a key.
  const problem = baseURLProblem(base);
  if (problem?.includes("credentials"))
    throw new TypeError(`Expected \`baseURL\` without credentials: ${problem}`);
  const account = options.account ?? `key-${sha256(options.apiKey ?? "").slice(0, 12)}`;
  return { baseURL: base, account, key: sha256(`${base}\n${account}`).slice(0, 12) };
}

/**
 * Queue names: runs; local work; waits for decisions at gates (no concurrency limit: a wait
 * holds no worker's place); per service and per queue a kind declares, its units and, for a
 * queue with slots, the slots (one per unit holding capacity at the service, e.g. a video job
 * in flight).
 * @example queueNames.units("3f2a", "video", true) // "reelsmith-video-units-3f2a"
 */
export const queueNames = {
  runs: "reelsmith-runs",
  approvals: "reelsmith-approvals",
  local: "reelsmith-local",
  /** Units of a queue: apart from its slots when it has some, else the queue itself. */
  units: (service: string, queue: string, slotted: boolean) =>
    slotted ? `reelsmith-${queue}-units-${service}` : `reelsmith-${queue}-${service}`,
  /** The account's slots of a queue. */
  slots: (service: string, queue: string) => `reelsmith-${queue}-${service}`,
};

/** The budget scope of a whole service account, and of one run. */
export const budgetScopes = {
  account: (service: string) => `account:${service}`,
  run: (runId: string) => `run:${runId}`,
  batch: (batchId: string) => `batch:${batchId}`,
};
