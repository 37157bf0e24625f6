import type { RunOptions } from "@reelsmith/runner";

/** What a session needs of the service a run goes on with. */
export type SessionOptions = Pick<
  RunOptions,
  | "client"
  | "baseURL"
  | "builtInService"
  | "cache"
  | "cacheDir"
  | "resubmitLostJobs"
  | "catalogs"
  | "maxCredits"
  | "slots"
>;

/** The service opened for one session of a run, closed when the session ends. */
export interface OpenedService {
  options: SessionOptions;
  close(): Promise<void>;
}

/** What a session of the studio does to a run. */
export type SessionKind = "resume" | "retake" | "pick";

/**
 * Where the studio's sessions run: the host (the CLI, a test) opens the service a run goes on
 * with, by its own rules (`reelsmith resume`'s: the run's recorded service, or a new built-in
 * simulator for a run begun on one). The studio itself never reads keys.
 * @example
 * const host: StudioHost = { openService: async () => ({ options: { client }, close: async () => {} }) };
 */
export interface StudioHost {
  openService(runDir: string, kind: SessionKind): Promise<OpenedService>;
  /**
   * Strings that must never appear in a page (API keys): replaced by `[redacted]`. Read at
   * every page, so a live collection (a Set the host adds keys to) stays current.
   */
  secrets?: Iterable<string>;
}
