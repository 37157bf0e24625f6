import type { BatchRowHost } from "@reelsmith/runner/batch";
import { maxVideosSlots } from "../commands/max-videos.js";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors/cli-error.js";
import { listedVideoModels } from "../services/listed-video-models.js";
import { openCoordinator } from "./database-option.js";
import { workerClientOptions } from "./execute-distributed-run.js";

/** What `batch --database` (and the resume of such a batch) gives its rows' runs. */
export interface BatchOnDatabaseOptions {
  database: string;
  baseUrl?: string;
  apiKey?: string;
  /** The service's base URL the batch uses (never the built-in simulator). */
  baseURL: string | undefined;
  maxCredits?: number;
  maxVideos?: number;
  cache?: boolean;
  autoApprove?: boolean;
  catalogs?: Readonly<Record<string, readonly { id: string }[]>>;
  /** Stops following the rows' runs (they go on on the workers). */
  signal: AbortSignal;
  note: (line: string) => void;
}

/**
 * The host that puts a batch's rows on the workers of the shared database: each row's run is
 * submitted with the service (its key stays here; workers take theirs from their environment),
 * the profile's client options and catalogs, and followed. Refuses the built-in simulator,
 * which no worker can reach.
 * @example const { rowHost, close } = await batchOnDatabase({ database, baseURL, signal, note }, context);
 */
export async function batchOnDatabase(
  options: BatchOnDatabaseOptions,
  context: CliContext,
): Promise<{ rowHost: BatchRowHost; close: () => Promise<void> }> {
  if (!options.baseURL) {
    throw new UsageError("a batch on many machines needs a service that every worker can reach", {
      code: "service_required",
      hint: "pass --base-url (or set REELSMITH_BASE_URL); the built-in simulator lives in one process only",
    });
  }
  const { connection, service } = await resolveService(options, context);
  let catalogs = options.catalogs;
  if (!catalogs?.video_models) {
    // The service's own list (one free request) gives its video models' limits and prices,
    // which every row's estimate and its reservations on every worker use.
    const listed = await listedVideoModels(context, options);
    if (listed.videoModels) catalogs = { ...catalogs, video_models: listed.videoModels };
    if (listed.note) options.note(listed.note);
  }
  const coordinator = await openCoordinator(options.database, context);
  const { createDatabaseRowHost } = await import("@reelsmith/distributed/internal");
  let warned = false;
  const rowHost = createDatabaseRowHost(coordinator, {
    submit: {
      baseURL: options.baseURL,
      ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
      // `--max-videos` is the account-wide limit of the video kind's queue.
      ...(await maxVideosSlots(options.maxVideos || undefined)),
      ...(options.cache === false ? { cache: false } : {}),
      ...(options.autoApprove ? { autoApprove: true } : {}),
      ...(service ? { client: workerClientOptions(service.clientOptions) } : {}),
      ...(catalogs ? { catalogs } : {}),
    },
    ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
    signal: options.signal,
    onNoWorker: () => {
      if (warned) return;
      warned = true;
      options.note(
        "no live worker on this database yet: the rows wait in the queue until one starts. Start one with: reelsmith worker --database …",
      );
    },
  });
  return { rowHost, close: () => coordinator.close() };
}
