import { RunnerError } from "@reelsmith/runner";

/**
 * A wait for the database at start-up (a connection, the schema lock, DBOS's launch) passed
 * its deadline. `waitedFor` says what was awaited, so the message can say what to look at.
 * @example throw new DatabaseWaitError("the schema lock reelsmith.migrate (held by pid 812)", 120_000);
 */
export class DatabaseWaitError extends RunnerError<"database_wait_timeout"> {
  readonly waitedFor: string;
  readonly waitedMs: number;
  constructor(waitedFor: string, waitedMs: number, options?: { cause?: unknown }) {
    super(
      "database_wait_timeout",
      `gave up after ${Math.round(waitedMs / 1000)} s waiting for ${waitedFor}; check that the database is up and that no session holds it (pg_stat_activity), then start again`,
      options,
    );
    this.waitedFor = waitedFor;
    this.waitedMs = waitedMs;
  }
}
