import path from "node:path";
import type { planRows as planBatchRows } from "@reelsmith/runner/batch";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { openRunCache } from "../services/run-cache.js";

/**
 * `reelsmith batch FILE --inputs ROWS --plan` (and `reelsmith plan FILE --inputs rows.csv`):
 * every row checked and priced, nothing paid; prints each row's expected cost and the total
 * (`--json`: the batch estimate as JSON). Prices as `plan` finds them (the provider profile,
 * else the service's model list, one free request, unless `service` is false); what the cache
 * holds costs a row nothing unless `cache` is false, as when the batch runs.
 * @example const code = await planBatchCommand("p.yaml", "rows.csv", { json: false, service: true }, context);
 */
export async function planBatchCommand(
  file: string,
  inputsFile: string,
  flags: {
    json: boolean;
    service: boolean;
    cache: boolean;
    baseUrl?: string;
    apiKey?: string;
    /** The shared database whose workers would run the rows: its cache prices them. */
    database?: string;
    /** With `database`: the artifacts directory the workers share (default runs). */
    artifacts?: string;
  },
  context: CliContext,
): Promise<number> {
  const { makePlan } = await import("./make-plan.js");
  const connection = {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
  };
  // The rows are priced below; the plan of the pipeline with its defaults is not shown.
  const { pipeline, catalogs } = await makePlan(
    file,
    { service: flags.service, cache: false, ...connection },
    context,
    (line) => context.stderr.write(`${line}\n`),
  );
  const { planRows } = await import("@reelsmith/runner/batch");
  const absolute = path.resolve(context.cwd, inputsFile);
  // What the cache holds costs a row nothing, as when the batch runs: here, or on the workers.
  const cache = flags.cache
    ? await openRunCache(flags, context, (line) => context.stderr.write(`${line}\n`))
    : undefined;
  let estimate: Awaited<ReturnType<typeof planBatchRows>>["estimate"];
  try {
    ({ estimate } = await planRows(pipeline, absolute, {
      ...(catalogs ? { catalogs } : {}),
      ...(cache?.cache ? { rowsCache: cache.cache } : {}),
      shown: displayPath(absolute, context.cwd),
    }));
  } finally {
    await cache?.close();
  }
  if (flags.json) {
    context.stdout.write(`${JSON.stringify(estimate, null, 2)}\n`);
    return ExitCode.ok;
  }
  const width = Math.max(3, ...estimate.rows.map((row) => row.id.length));
  const lines = [`${"row".padEnd(width)}  line  expected cost`];
  for (const row of estimate.rows) {
    const cost = row.complete
      ? `${row.credits} credits`
      : `at least ${row.credits} credits${row.creditsAtMost === undefined ? "" : ` (at most ${row.creditsAtMost})`}`;
    lines.push(`${row.id.padEnd(width)}  ${String(row.line).padStart(4)}  ${cost}`);
  }
  const total = estimate.complete
    ? `${estimate.credits} credits`
    : `at least ${estimate.credits} credits${estimate.creditsAtMost === undefined ? "" : ` (at most ${estimate.creditsAtMost})`}`;
  lines.push(`total: ${total} for ${estimate.rows.length} rows`);
  context.stdout.write(`${lines.join("\n")}\n`);
  return ExitCode.ok;
}
