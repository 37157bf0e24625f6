import { createEventBus } from "./events/event-bus.js";
import { createEventQueue } from "./events/event-queue.js";
import type { RunEvent } from "./events/run-event.js";
import type { RunOptions, RunResult } from "./run-options.js";
import { runWithBus } from "./run-pipeline.js";

/**
 * Runs a pipeline and yields its events as they happen; `result` settles with the run's result.
 * @example
 * const run = streamPipeline("storyboard.yaml", { inputs: { scenes: 3 } });
 * for await (const event of run) if (event.type === "unit.progress" && event.stage === "status") console.log(event.job, event.status);
 * const { status, outputs } = await run.result;
 */
export function streamPipeline(
  pipeline: string | object | undefined,
  options: RunOptions = {},
): AsyncIterable<RunEvent> & { result: Promise<RunResult> } {
  const queue = createEventQueue();
  const bus = createEventBus(options.onEvent ? { onEvent: options.onEvent } : {});
  bus.subscribe((event) => queue.push(event));
  const result = runWithBus(pipeline, options, bus).finally(() => queue.end());
  // The iterator ends when the run ends; a failure to start surfaces through `result`.
  result.catch(() => undefined);
  return { [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](), result };
}
