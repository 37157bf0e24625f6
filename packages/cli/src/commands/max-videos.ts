import type { AnyStepKind } from "@reelsmith/runner/kinds";

/**
 * The queue `--max-videos` limits: the one the video kind's units wait on, as the kind
 * declares it (its `queue`), so a kind that shares that queue counts against the flag too and
 * the CLI never spells a queue's name. The flag itself is the clips' by name: video jobs are
 * the capacity a service holds longest, the one limit most runs set from the terminal; every
 * other queue is limited by the runner's `slots` option, and a provider account's requests
 * of any kind by its `max_concurrent_jobs`.
 * @example await maxVideosQueue() // "video"
 */
export async function maxVideosQueue(kinds?: readonly AnyStepKind[]): Promise<string> {
  const known = kinds ?? (await import("@reelsmith/runner/kinds")).builtInStepKinds;
  const queue = known.find((kind) => kind.kind === "video")?.queue;
  if (queue === undefined || queue === "local")
    throw new TypeError("Expected a video step kind that waits on a service queue");
  return queue;
}

/**
 * The run's `slots` for `--max-videos`: the video kind's queue at that size, or none.
 * @example await maxVideosSlots(2) // { slots: { video: 2 } }
 */
export async function maxVideosSlots(
  maxVideos: number | undefined,
  kinds?: readonly AnyStepKind[],
): Promise<{ slots?: Record<string, number> }> {
  if (maxVideos === undefined) return {};
  return { slots: { [await maxVideosQueue(kinds)]: maxVideos } };
}

/**
 * What a batch kept of `--max-videos` (its `slots`), read back on resume.
 * @example await keptMaxVideos({ video: 2 }) // 2
 */
export async function keptMaxVideos(
  slots: Readonly<Record<string, number>> | undefined,
): Promise<number | undefined> {
  return slots ? slots[await maxVideosQueue()] : undefined;
}
